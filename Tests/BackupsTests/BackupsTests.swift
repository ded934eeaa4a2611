// Tests of the Backups target; see the files beside this one.
