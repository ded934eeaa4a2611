// TLSCertificates: Zaiko's local certificate authority and the server certificate it signs
// for the machine's names and LAN addresses, made with GnuTLS. Knows nothing of HTTP.
