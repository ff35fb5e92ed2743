// Building and signing Stardust transactions, blocks and milestones. A new builder: a file here, exported below.
