// An empty Swift program: gridstore-bench measures its start-up as the floor for `gridstore`'s.
