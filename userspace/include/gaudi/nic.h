/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libgaudi: RoCE v2 between cards, over gaudi.ko's NIC ioctl
 * (DRM_IOCTL_GAUDI_NIC, uapi/drm/gaudi_accel.h "NIC").
 *
 * A process that holds a card opens the ports it wants
 * (gaudi_nic_port_open(): their send queues and completion queue, in host
 * memory the library allocates and maps), creates queue pairs on them,
 * exchanges each QP's address with its peer out of band (any byte stream:
 * gaudi_nic_exchange()), connects, and posts RDMA WRITEs that may signal a
 * sync object on the remote card when their data has landed.  Completion
 * of a write on the requester side (the remote card acknowledged all of it)
 * is a CQE in the port's completion queue: gaudi_qp_wait().
 */
#ifndef GAUDI_NIC_H
#define GAUDI_NIC_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gaudi_dev;
struct gaudi_nic_port;
struct gaudi_qp;
struct gaudi_cmdbuf;

/* Largest RDMA WRITE one WQE carries (its 14-bit size field). */
#define GAUDI_NIC_WQE_MAX_BYTES		16380U

/**
 * gaudi_nic_link() - the card's ports
 * @dev: the device (compute node)
 * @ports: receives the enabled ports (bit per port), or NULL
 * @ext: receives the scale-out ports among them, or NULL
 * @up: receives the ports with link now, or NULL
 *
 * Return: 0; -EOPNOTSUPP without gaudi.ko's NIC ioctl; a negative errno.
 */
int gaudi_nic_link(struct gaudi_dev *dev, uint32_t *ports, uint32_t *ext,
		   uint32_t *up);

/**
 * gaudi_nic_dl1_port() - the port that links two cards of a DL1 host
 * @module: the module id of this card (gaudi_card_module_id()), 0..7
 * @peer_module: the other card's, 0..7, not @module
 *
 * The board's all-to-all wiring of ports 0..6 (Documentation/emulator/
 * nic.rst, "The DL1 wiring"): port p of module m leads to module p when
 * p < m, else to module p + 1.
 *
 * Return: the port, or -EINVAL.
 */
int gaudi_nic_dl1_port(int module, int peer_module);

/**
 * gaudi_nic_port_open() - make a port ready for queue pairs
 * @dev: the device (compute node, held)
 * @port: port number (0..9), enabled on the card
 * @max_qps: queue pairs this process may create on it (1..1022)
 * @wq_entries: WQEs per send queue, a power of 2 (4..4096)
 * @cq_entries: CQEs of the port's completion queue, a power of 2
 *	(16..2^20)
 * @out: receives the port
 *
 * Return: 0 or a negative errno (-EBUSY: the port is already open in
 * this process).
 */
int gaudi_nic_port_open(struct gaudi_dev *dev, unsigned int port,
			unsigned int max_qps, unsigned int wq_entries,
			unsigned int cq_entries, struct gaudi_nic_port **out);

/**
 * gaudi_nic_port_close() - release a port (its QPs must be destroyed)
 * @p: the port, or NULL
 *
 * Return: 0 or the driver's negative errno (the object is freed anyway).
 */
int gaudi_nic_port_close(struct gaudi_nic_port *p);

/**
 * struct gaudi_nic_addr - one end of a connection, for its peer
 * @mac: the port's MAC address
 * @port: the port number
 * @ip: an IPv4 address for the headers (host byte order)
 * @qpn: the QP number
 * @rkey: the key the peer's writes must carry (the QP's first region's,
 *	gaudi_qp_reg_mr())
 * @psn: the first packet sequence number this end sends
 */
struct gaudi_nic_addr {
	uint8_t mac[6];
	uint16_t port;
	uint32_t ip;
	uint32_t qpn;
	uint32_t rkey;
	uint32_t psn;
};

/**
 * gaudi_qp_create() - a new queue pair on a port
 * @p: the port
 * @out: receives the QP
 *
 * Picks a random key and first PSN.
 *
 * Return: 0, -ENOSPC (the port's @max_qps are taken), a negative errno.
 */
int gaudi_qp_create(struct gaudi_nic_port *p, struct gaudi_qp **out);

/**
 * gaudi_qp_addr() - this end's address, to give to the peer
 * @qp: the QP
 * @out: receives it
 *
 * The MAC is the port's, as the driver reads it from the card; the IPv4
 * address is 10.<PCI bus>.<port>.1 unless gaudi_qp_set_ip() set one.
 *
 * Return: 0 or a negative errno.
 */
int gaudi_qp_addr(const struct gaudi_qp *qp, struct gaudi_nic_addr *out);

/**
 * gaudi_qp_set_ip() - the IPv4 address this end puts in its headers
 * @qp: the QP
 * @ip: the address, host byte order
 */
void gaudi_qp_set_ip(struct gaudi_qp *qp, uint32_t ip);

/**
 * gaudi_qp_reg_mr() - let the peer of a QP write into a range
 * @qp: the QP (connected or not)
 * @va: device VA of the range (inside one host mapping of this process,
 *	gaudi_map_host())
 * @size: bytes, at least 1
 * @key: receives the region's key (the peer's R_Key), or NULL
 *
 * The peer's RDMA WRITEs land only inside the regions registered on the
 * QP they arrive on (since gaudi.ko ABI 1.6); a write elsewhere is
 * refused and puts the QP in error.  The first region's key is the @rkey
 * of gaudi_qp_addr(): register before handing the address to the peer.
 * The mapping cannot be unmapped while the region lives
 * (gaudi_unmap(): -EBUSY); the region ends with gaudi_qp_dereg_mr(),
 * gaudi_qp_destroy() or the close of the device.  Writes that carry no
 * data (a remote sync object only) need no region.
 *
 * Return: 0, -EOPNOTSUPP (the driver has no regions), -ENOSPC (the
 * port's 1024 regions are taken), -EINVAL (not one host mapping), a
 * negative errno.
 */
int gaudi_qp_reg_mr(struct gaudi_qp *qp, uint64_t va, uint64_t size,
		    uint32_t *key);
/**
 * gaudi_qp_dereg_mr() - end a region of gaudi_qp_reg_mr()
 * @qp: its QP
 * @key: its key
 *
 * From the return on, no packet of the peer writes into it (also not the
 * rest of a message that began before).
 *
 * Return: 0, -ENOENT (no region of that key), -EOPNOTSUPP, a negative
 * errno.
 */
int gaudi_qp_dereg_mr(struct gaudi_qp *qp, uint32_t key);
/**
 * gaudi_qp_set_path_mtu() - the path MTU of the QP's connection
 * @qp: the QP, before gaudi_qp_connect() (which applies it)
 * @mtu: bytes of payload per packet: 256, 512, 1024, 2048 or 4096 (the
 *	default); a peer's is agreed out of band, as with verbs
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP (the driver has only 4096).
 */
int gaudi_qp_set_path_mtu(struct gaudi_qp *qp, unsigned int mtu);
/**
 * gaudi_qp_set_rnr_retry() - resends after RNR NAKs before the QP fails
 * @qp: the QP, before gaudi_qp_connect() (which applies it)
 * @retries: 0..6, or 7 for unlimited (the default), as InfiniBand's
 *	rnr_retry: a peer that has no receive posted for a write with
 *	immediate answers RNR NAK, and the card waits and resends
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP (the driver has only 7).
 */
int gaudi_qp_set_rnr_retry(struct gaudi_qp *qp, unsigned int retries);
/**
 * gaudi_qp_connect() - connect to the peer's QP
 * @qp: the QP
 * @remote: the peer's address (its gaudi_qp_addr())
 *
 * Writes the requester context (to the peer) and the responder context
 * (from the peer; a remote sync-object write of the peer signals the SOB
 * it names on this card).  Also brings a QP in error back.
 *
 * Return: 0 or a negative errno.
 */
int gaudi_qp_connect(struct gaudi_qp *qp, const struct gaudi_nic_addr *remote);

/**
 * gaudi_qp_write() - post an RDMA WRITE
 * @qp: a connected QP
 * @local_va: device VA of the data on this card (a host mapping or HBM)
 * @remote_va: device VA on the peer card (in the peer's mappings)
 * @size: bytes; split into WQEs of at most GAUDI_NIC_WQE_MAX_BYTES
 * @remote_sob: CFG offset of a user sync object on the peer card (W_S
 *	144..2047, E_S, W_N, E_N; others put the QP in error) to write
 *	once all the data landed, or 0 for none
 * @sob_value: the value written to it (e.g. gaudi_sob_value(1, true))
 *
 * Return: the WQE index of the write's last WQE (for gaudi_qp_wait()),
 * -EAGAIN when the send queue has no room for it (wait for earlier writes
 * first), -EIO when the QP is in error, a negative errno.
 */
int gaudi_qp_write(struct gaudi_qp *qp, uint64_t local_va, uint64_t remote_va,
		   uint64_t size, uint32_t remote_sob, uint32_t sob_value);

/**
 * gaudi_qp_post() - write an RDMA WRITE's WQEs, without ringing
 * @qp: a connected QP
 * @local_va: as for gaudi_qp_write()
 * @remote_va: as for gaudi_qp_write()
 * @size: as for gaudi_qp_write()
 * @remote_sob: as for gaudi_qp_write()
 * @sob_value: as for gaudi_qp_write()
 *
 * The WQEs go out once a doorbell names them: gaudi_qp_doorbell() from
 * the host, or the packets of gaudi_pkt_qp_doorbell() in a CB on the
 * port's NIC queue (gaudi_qp_nic_queue()), so that the card sends when
 * the CB gets there (after a FENCE on the compute, say) with no host CPU.
 *
 * Return: as gaudi_qp_write().
 */
int gaudi_qp_post(struct gaudi_qp *qp, uint64_t local_va, uint64_t remote_va,
		  uint64_t size, uint32_t remote_sob, uint32_t sob_value);

/**
 * gaudi_qp_doorbell() - send every WQE posted so far, from the host
 * @qp: a connected QP
 *
 * Return: 0; -EIO when the QP is in error; a negative errno.
 */
int gaudi_qp_doorbell(struct gaudi_qp *qp);

/**
 * gaudi_qp_nic_queue() - the queue id of the QP's port's NIC queue
 * @qp: the QP
 * @stream: 0..3
 *
 * Return: upstream's GAUDI_QUEUE_ID_NIC_<port>_<stream>, or -EINVAL.
 */
int gaudi_qp_nic_queue(const struct gaudi_qp *qp, unsigned int stream);

/**
 * gaudi_pkt_qp_doorbell() - append the packets that ring the QP's doorbell
 * @cb: a command-buffer builder, for a CB on gaudi_qp_nic_queue(@qp, s)
 * @qp: a connected QP
 *
 * Two MSG_LONGs (32 bytes) to the port's unsecured doorbell, for every WQE
 * posted when this is called.  Only the QP's port's NIC queue may run them
 * (the driver refuses them elsewhere).
 *
 * Return: 0, -EINVAL, -ENOSPC (nothing appended).
 */
int gaudi_pkt_qp_doorbell(struct gaudi_cmdbuf *cb, const struct gaudi_qp *qp);

/**
 * gaudi_qp_wait() - wait until a posted WQE is acknowledged
 * @qp: the QP
 * @wqe: a WQE index gaudi_qp_write() returned
 * @timeout_ms: at most this long; 0 polls once
 *
 * Return: 0; -ETIMEDOUT; -EIO when the QP went into error (a bad remote
 * key, a refused sync object, a dead link); a negative errno.
 */
int gaudi_qp_wait(struct gaudi_qp *qp, int wqe, unsigned int timeout_ms);

/**
 * gaudi_qp_error() - whether the QP is in error
 * @qp: the QP
 *
 * Return: 1 in error, 0 not, a negative errno.
 */
int gaudi_qp_error(struct gaudi_qp *qp);

/**
 * gaudi_qp_number() - the QP's number on its port
 * @qp: the QP
 *
 * Return: the number.
 */
uint32_t gaudi_qp_number(const struct gaudi_qp *qp);

/**
 * gaudi_qp_destroy() - destroy a QP
 * @qp: the QP, or NULL
 *
 * Return: 0 or the driver's negative errno (the object is freed anyway).
 */
int gaudi_qp_destroy(struct gaudi_qp *qp);

/**
 * gaudi_nic_addr_format() - an address as one line of text
 * @a: the address
 * @buf: receives "mac=02:..:0a port=N ip=A.B.C.D qpn=N rkey=0x.. psn=N"
 * @len: its size (at least 96)
 *
 * Return: the length written, or -ENOSPC.
 */
int gaudi_nic_addr_format(const struct gaudi_nic_addr *a, char *buf,
			  unsigned int len);

/**
 * gaudi_nic_addr_parse() - the inverse of gaudi_nic_addr_format()
 * @s: the text (a trailing newline is allowed)
 * @a: receives the address
 *
 * Return: 0 or -EINVAL.
 */
int gaudi_nic_addr_parse(const char *s, struct gaudi_nic_addr *a);

/**
 * gaudi_nic_exchange() - swap addresses with the peer over a byte stream
 * @fd: a connected socket (or any descriptor open for reading and
 *	writing; a socket's closed peer gives -EPIPE, never SIGPIPE)
 * @mine: this end's address, sent first as a line
 * @theirs: receives the peer's line, parsed
 *
 * Return: 0, -EPROTO (a line that does not parse), -EPIPE (the peer
 * closed), a negative errno.
 */
int gaudi_nic_exchange(int fd, const struct gaudi_nic_addr *mine,
		       struct gaudi_nic_addr *theirs);

#ifdef __cplusplus
}
#endif

#endif /* GAUDI_NIC_H */
