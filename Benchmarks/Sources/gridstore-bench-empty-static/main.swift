// An empty Swift program linked as gridstore is (-static-stdlib): the floor for `gridstore`'s start-up.
