// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi_en_stale: gaudi_en must size a received frame by the length the
 * NIC wrote into its slot, never by the frame's IPv4 total length (issue
 * 22: a short frame claiming 590 bytes made the receiver's ICMP error
 * quote the slot's older bytes).
 *
 *   gaudi_en_stale send IFNAME DSTMAC    a 1000-byte IPv4 frame (payload
 *                                        0xAA), then a 60-byte one whose
 *                                        IPv4 header claims 590 bytes
 *   gaudi_en_stale recv IFNAME SECONDS   waits for both on a packet socket:
 *                                        exit 0 if the long one has its
 *                                        1000 bytes and the short one
 *                                        exactly 60, none of them 0xAA
 *
 * The frames carry IP protocol 253 (RFC 3692 experiments) and a marker, so
 * nothing else on the link is taken for them.  Prints one line; exit
 * status 1 on a wrong length, 2 on a usage or socket error.
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define LONG_LEN	1000
#define SHORT_LEN	60
#define CLAIMED		590
#define MARK		0x4E4F5354U	/* "NOST" */

static int sock(const char *ifname, struct sockaddr_ll *sll)
{
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));

	if (fd < 0) {
		perror("socket");
		return -1;
	}
	memset(sll, 0, sizeof(*sll));
	sll->sll_family = AF_PACKET;
	sll->sll_protocol = htons(ETH_P_ALL);
	sll->sll_ifindex = (int)if_nametoindex(ifname);
	if (!sll->sll_ifindex ||
	    bind(fd, (struct sockaddr *)sll, sizeof(*sll))) {
		perror(ifname);
		close(fd);
		return -1;
	}
	return fd;
}

/* An IPv4 frame of @len bytes whose header says @ip_len, payload @fill. */
static void frame(uint8_t *f, size_t len, const uint8_t dst[6],
		  uint16_t ip_len, uint8_t fill, uint8_t seq)
{
	uint32_t mark = htonl(MARK);

	memset(f, fill, len);
	memcpy(f, dst, 6);
	memcpy(f + 6, "\x02\x00\x00\x00\x53\x54", 6);
	f[12] = 0x08;
	f[13] = 0x00;
	memset(f + 14, 0, 20);
	f[14] = 0x45;
	f[16] = (uint8_t)(ip_len >> 8);
	f[17] = (uint8_t)ip_len;
	f[22] = 64;
	f[23] = 253;
	memcpy(f + 34, &mark, 4);
	f[38] = seq;
}

static int do_send(const char *ifname, const char *mac)
{
	uint8_t dst[6], f[LONG_LEN];
	unsigned int m[6], i;
	struct sockaddr_ll sll;
	int fd;

	if (sscanf(mac, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3],
		   &m[4], &m[5]) != 6)
		return 2;
	for (i = 0; i < 6; i++)
		dst[i] = (uint8_t)m[i];
	fd = sock(ifname, &sll);
	if (fd < 0)
		return 2;
	frame(f, LONG_LEN, dst, LONG_LEN - 14, 0xAA, 1);
	if (send(fd, f, LONG_LEN, 0) != LONG_LEN) {
		perror("send");
		return 2;
	}
	usleep(100000);
	frame(f, SHORT_LEN, dst, CLAIMED, 0x55, 2);
	if (send(fd, f, SHORT_LEN, 0) != SHORT_LEN) {
		perror("send");
		return 2;
	}
	printf("sent %d and %d bytes (the second claims %d of IPv4)\n",
	       LONG_LEN, SHORT_LEN, CLAIMED);
	close(fd);
	return 0;
}

static int do_recv(const char *ifname, int secs)
{
	uint8_t f[4096];
	struct sockaddr_ll sll;
	ssize_t got[3] = { -1, -1, -1 };
	int fd, aa = 0;
	time_t end = time(NULL) + secs;

	fd = sock(ifname, &sll);
	if (fd < 0)
		return 2;
	/* Ready: the sender may start (the line is what the suite waits for). */
	printf("listening\n");
	fflush(stdout);
	while ((got[1] < 0 || got[2] < 0) && time(NULL) < end) {
		struct pollfd p = { fd, POLLIN, 0 };
		uint32_t mark;
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		n = recv(fd, f, sizeof(f), 0);
		if (n < 39 || f[12] != 0x08 || f[13] || f[23] != 253)
			continue;
		memcpy(&mark, f + 34, 4);
		if (ntohl(mark) != MARK || f[38] < 1 || f[38] > 2)
			continue;
		got[f[38]] = n;
		if (f[38] == 2)
			for (ssize_t k = 39; k < n; k++)
				aa += f[k] == 0xAA;
	}
	printf("received %zd and %zd bytes (%d bytes 0xAA in the short one)\n",
	       got[1], got[2], aa);
	close(fd);
	return got[1] == LONG_LEN && got[2] == SHORT_LEN && !aa ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "send"))
		return do_send(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return do_recv(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: gaudi_en_stale send IFNAME DSTMAC | recv IFNAME SECONDS\n");
	return 2;
}
