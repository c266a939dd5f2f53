-- A branch build's change that the default branch would report only once one more build shows it is judged
-- inconclusive: the build is judged once, with nothing after it, and "unchanged" would hide a change that large.
ALTER TABLE branch_result DROP CONSTRAINT branch_result_verdict_check;
ALTER TABLE branch_result ADD CONSTRAINT branch_result_verdict_check
    CHECK (verdict IN ('regression', 'improvement', 'unchanged', 'inconclusive', 'insufficient-data'));
