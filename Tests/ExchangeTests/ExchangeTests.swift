// Tests of the Exchange target; see the files beside this one.
