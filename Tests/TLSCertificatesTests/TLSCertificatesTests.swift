// Tests of the TLSCertificates target; see the files beside this one.
