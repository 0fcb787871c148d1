-- 0002: clock claims. Several bot processes may share one database; before firing a clock a process
-- claims its row, so exactly one of them applies the timeout. A claim lapses at claimed_until, so a
-- process that dies holding one delays that clock, never loses it. Writing a clock for a new prompt
-- clears the claim; rewriting the same prompt's clock (more answers awaited) keeps it.

ALTER TABLE clocks ADD COLUMN claimed_by TEXT;     -- who fires it now (NULL: nobody)
ALTER TABLE clocks ADD COLUMN claimed_until REAL;  -- unix seconds when that claim lapses
