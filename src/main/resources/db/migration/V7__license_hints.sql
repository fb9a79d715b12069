-- Two flags on the license row that let a checkout skip a read under the license lock (issue 20): whether the
-- license may have a blocked install (install_block) and whether it may have installs waiting (queue_entry).
-- Set in the transaction that adds a block or a queue entry, with the license row locked; cleared by a checkout
-- that read the table and found nothing live. Existing licenses start with both set: their next checkout reads,
-- as before, and clears what it finds empty.
ALTER TABLE license ADD COLUMN may_have_blocks BOOLEAN DEFAULT TRUE NOT NULL;
ALTER TABLE license ADD COLUMN may_have_waiters BOOLEAN DEFAULT TRUE NOT NULL;
