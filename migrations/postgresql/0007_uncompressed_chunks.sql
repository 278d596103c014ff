-- gridstore schema for PostgreSQL, version 7: placement chunks are stored as they are, not compressed.
-- A chunk is rewritten whenever its tiles move, and one of about 2.5 kB passed PostgreSQL's
-- 2 kB TOAST threshold, so every change compressed the chunks it wrote: the largest share of
-- the server's work for a change. Rows up to 8,160 bytes now stay in the table uncompressed.
ALTER TABLE placement_chunks SET (toast_tuple_target = 8160);
