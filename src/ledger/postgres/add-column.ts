/**
 * A statement that adds a column where it is missing (and takes no lock where it is there: ALTER TABLE locks the
 * table even when the column exists, and waits for every reader).
 */
export function addColumn(table: string, column: string, type: string): string {
  return `do $$ begin
     if not exists (select 1 from information_schema.columns
                    where table_name = '${table}' and column_name = '${column}') then
       alter table ${table} add column ${column} ${type};
     end if;
   end $$`;
}

/**
 * A flag of the status row that a database kept before a change gets false (its writer's opening does the change
 * once, then sets it) and a new one true (the default after the column is added: everything written to it has it).
 */
export function laterFlag(column: string): string {
  return `do $$ begin
     if not exists (select 1 from information_schema.columns
                    where table_name = 'status' and column_name = '${column}') then
       alter table status add column ${column} boolean not null default false;
       alter table status alter column ${column} set default true;
     end if;
   end $$`;
}
