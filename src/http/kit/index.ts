// The machinery every HTTP API uses (problem: errors → statuses, auth, limits, the route kit, reply cache, CSV and
// paging); it reaches into none of them. A new piece: a file here, exported below.
