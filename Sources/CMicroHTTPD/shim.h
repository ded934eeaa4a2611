#ifndef ZAIKO_CMICROHTTPD_SHIM_H
#define ZAIKO_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <ctype.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* Limits and callbacks for one daemon; see zaiko_mhd_start. */
struct zaiko_mhd_config {
    unsigned int flags;
    const struct sockaddr *address;   /* the address to bind, port included */
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    MHD_AccessHandlerCallback access_handler;
    void *access_handler_cls;
    MHD_RequestCompletedCallback completed;
    void *completed_cls;
    MHD_AcceptPolicyCallback accept_policy;   /* refuses a client over its connection limit */
    void *accept_policy_cls;
    MHD_NotifyConnectionCallback notify_connection;   /* opened / closed, for counts and deadlines */
    void *notify_connection_cls;
    void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *c);   /* sees the query before it is parsed */
    void *uri_log_cls;
    /* HTTPS only (flags include MHD_USE_TLS), else NULL: GnuTLS priorities and a
       gnutls_certificate_retrieve_function2 that picks the certificate at each handshake. */
    const char *https_priorities;
    void *https_cert_callback;
};

/* Percent-decodes `s` in place like libmicrohttpd's own unescaper, except that "%00" stays as it
   is: a decoded NUL would silently cut the path or value short where Swift copies it. */
static size_t zaiko_mhd_unescape(void *cls, struct MHD_Connection *c, char *s) {
    (void) cls; (void) c;
    char *read = s, *write = s;
    while (*read != '\0') {
        if (read[0] == '%' && isxdigit((unsigned char) read[1]) && isxdigit((unsigned char) read[2])) {
            char hex[3] = { read[1], read[2], '\0' };
            unsigned long value = strtoul(hex, NULL, 16);
            if (value != 0) {
                *write++ = (char) value;
                read += 3;
                continue;
            }
        }
        *write++ = *read++;
    }
    *write = '\0';
    return (size_t) (write - s);
}

/* MHD_start_daemon is C-variadic and cannot be called from Swift: pass the options as an array. */
static inline struct MHD_Daemon *zaiko_mhd_start(const struct zaiko_mhd_config *c) {
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_SOCK_ADDR, 0, (void *) c->address },
        { MHD_OPTION_THREAD_POOL_SIZE, (intptr_t) c->thread_pool_size, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, (intptr_t) c->connection_limit, NULL },
        { MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t) c->per_ip_connection_limit, NULL },
        { MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) c->notify_connection, c->notify_connection_cls },
        { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) c->uri_log, c->uri_log_cls },
        { MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t) c->connection_timeout_seconds, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) c->connection_memory_limit, NULL },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) c->completed, c->completed_cls },
        { MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) zaiko_mhd_unescape, NULL },
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL },
        { MHD_OPTION_END, 0, NULL }
    };
    if (c->https_cert_callback != NULL) {
        size_t end = sizeof(options) / sizeof(options[0]) - 3;
        options[end] = (struct MHD_OptionItem) { MHD_OPTION_HTTPS_PRIORITIES, 0, (void *) c->https_priorities };
        options[end + 1] = (struct MHD_OptionItem) { MHD_OPTION_HTTPS_CERT_CALLBACK, 0, c->https_cert_callback };
    }
    return MHD_start_daemon(c->flags, 0, c->accept_policy, c->accept_policy_cls,
                            c->access_handler, c->access_handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* Whether this libmicrohttpd was built with TLS and the certificate callback (Debian's links GnuTLS). */
static inline int zaiko_mhd_supports_tls(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES
        && MHD_is_feature_supported(MHD_FEATURE_HTTPS_CERT_CALLBACK) == MHD_YES;
}

/* The port the daemon listens on (useful after binding port 0); 0 when unknown. */
static inline uint16_t zaiko_mhd_bound_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The client's address as text ("192.168.1.20" or "::1"); writes "" when unknown. */
static inline void zaiko_mhd_client_address(struct MHD_Connection *c, char *out, size_t out_len) {
    out[0] = '\0';
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *) sa)->sin_addr, out, (socklen_t) out_len);
    } else if (sa->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *) sa)->sin6_addr, out, (socklen_t) out_len);
    }
}

/* The connection's socket, for cutting it off at its deadline; -1 when unknown. */
static inline int zaiko_mhd_connection_fd(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* The client's address as libmicrohttpd holds it; NULL when unknown. */
static inline const struct sockaddr *zaiko_mhd_client_sockaddr(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/* What the connection-notify callback stored for this connection; NULL when none. */
static inline void *zaiko_mhd_socket_context(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

#endif
