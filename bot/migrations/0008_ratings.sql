-- 0008 belongs to the ratings branch (issue #19). This placeholder keeps the numbering
-- gap-free on the records branch, which needs 0009; when both are merged, the ratings
-- branch's 0008_ratings.sql replaces this file.
SELECT 1;
