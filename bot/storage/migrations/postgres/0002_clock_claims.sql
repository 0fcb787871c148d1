-- 0002 (PostgreSQL): clock claims, as ../0002_clock_claims.sql explains.

ALTER TABLE clocks ADD COLUMN claimed_by    text;              -- who fires it now (NULL: nobody)
ALTER TABLE clocks ADD COLUMN claimed_until double precision;  -- unix seconds when that claim lapses
