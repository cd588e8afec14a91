/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gaudi-smi internals: the plain structs the parts share and the functions
 * each part offers the others.  Not installed.
 *
 *   collect.c   a card's state from libgaudi and sysfs into struct card
 *   nic.c       a card's NIC ports (gaudi_en's netdevs, the DL1 board map)
 *   health.c    the verdict of a card (judge) and --health's exit status
 *   procs.c     the processes holding cards, from /proc and the owner query
 *   ident.c     serial, UUID, NUMA node and CPUs, driver version (sysfs)
 *   fields.c    the field table (-Q, -q, --help-fields) and field values
 *   out_text.c  the default table, -L, --fw-versions, -q and --health text
 *   out_nic.c   -n ports|link|stats|topo and the ports of -q
 *   out_csv.c   -Q as CSV (also its default text form)
 *   out_json.c  --format json of -Q, -q and --health
 *   out_prom.c  --prometheus
 *   acct.c      -a, the accounting records gaudi.ko keeps
 *   events.c    --events, a stream of the cards' events
 *   actions.c   -r and -p (sysfs writes)
 *   compat.c    hl-smi's command line and layouts (gaudi-smi as hl-smi)
 *   options.c   the command line into struct smi, --help, --help-fields
 *   main.c      the mode table, discovery and the collection loop
 */
#ifndef GAUDI_SMI_H
#define GAUDI_SMI_H

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <gaudi/gaudi.h>

#include "gaudi1/boot.h"
#include "gaudi1/events.h"

#ifndef GAUDI_VERSION
#error "GAUDI_VERSION: the tree's VERSION, passed by the Makefile"
#endif
#define SMI_VERSION	GAUDI_VERSION

/* Exit codes (documented in gaudi-smi.1). */
enum {
	EX_OK = 0,
	EX_FAIL = 1,		/* an operation or query failed */
	EX_USAGE = 2,
	EX_NODEV = 3,		/* no card, driver not loaded, no such card */
	EX_PERM = 4,		/* needs root / node not accessible */
	EX_DEGRADED = 5,	/* --health: a card has warnings */
	EX_UNHEALTHY = 6,	/* --health: a card failed a check */
	EX_BUSY = 7,		/* -r: a process holds the card (no --force) */
};

#define NA		INT64_MIN	/* a value not read */
#define MAX_TEMPS	8
#define NUM_EVENTS	1024	/* buffer, room for every event id */
_Static_assert(NUM_EVENTS >= GAUDI_EVENT_SIZE, "NUM_EVENTS too small");
#define FWV_LEN		GAUDI_FW_VER_LEN
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define IDENT_UUID_LEN	37	/* 8-4-4-4-12 hex digits and a NUL */

/* ---- firmware versions (sysfs names; collect.c) ------------------------ */

struct fw_attr {
	const char *attr, *key, *label;
};
#define NUM_FW	9
extern const struct fw_attr fw_attrs[NUM_FW];

/* ---- event classes (upstream's gaudi_async_event_id numbering) --------- */

enum ev_class { EVC_OTHER, EVC_SERR, EVC_DERR, EVC_FATAL, EVC_NUM };
extern const char *const evc_names[EVC_NUM];

/* ---- per-card state ---------------------------------------------------- */

enum health { H_OK, H_WARN, H_FAIL };

/* ---- NIC ports (nic.c) ------------------------------------------------- */

#define NIC_PORTS	10

/* One port of a card; NA in what was not read. */
struct nic_port {
	bool enabled;		/* in nic_ports_mask (or has a netdev) */
	bool external;		/* in nic_ports_external_mask */
	char ifname[16];	/* "" when no netdev in this namespace */
	char mac[24];
	char operstate[16];
	int64_t carrier;	/* 1, 0, NA (interface down or not visible) */
	int64_t speed, mtu;	/* Mb/s (NA without carrier), bytes */
	int64_t rx_frames, tx_frames, rx_bytes, tx_bytes;
	int64_t rx_dropped, tx_dropped, rx_errors, tx_errors;
	/*
	 * The port's RoCE engine, from gaudi_en's ethtool statistics
	 * (roce_*); NA without them (no interface here, another driver,
	 * upstream's habanalabs).
	 */
	int64_t roce_tx_pkts, roce_rx_pkts, roce_retransmits;
	int64_t roce_acks_tx, roce_naks_tx, roce_acks_rx, roce_naks_rx;
	int64_t roce_qp_errors;
	int peer_module, peer_port;	/* board map; -1 none */
};

/*
 * The ethtool statistics of interface @ifname, one @fn call each; 0 or a
 * negative errno.  A pointer, so that the host tests can fake it.
 */
typedef void (*nic_stat_fn)(const char *name, uint64_t val, void *arg);
extern int (*nic_ethtool_stats)(const char *ifname, nic_stat_fn fn,
				void *arg);
int nic_ethtool_stats_ioctl(const char *ifname, nic_stat_fn fn, void *arg);
extern const char *const health_names[];

struct temp {
	char label[24];
	int64_t mc, max_mc, crit_mc;	/* millidegrees C */
};

struct card {
	unsigned int index;
	const struct gaudi_card *gc;
	const char *fake_node[2];	/* host tests: nodes without a gc */
	char bus[16];
	const char *driver;
	int sysfd;			/* the PCI device's sysfs folder */
	char hwmon[PATH_MAX];

	struct gaudi_dev *dev;		/* control node */
	int dev_err;			/* why dev is NULL */
	bool ext;			/* gaudi.ko extensions */

	char status[32];
	char name[32];
	int64_t module_id;
	char fw[NUM_FW][FWV_LEN];
	bool fw_have[NUM_FW];
	struct temp temps[MAX_TEMPS];
	unsigned int ntemps;
	int64_t power_mw, cap_mw, energy_uj, volt_mv, curr_ma;
	int64_t mem_total, mem_free, util;
	int64_t clk_cur, clk_max;
	int64_t reset_hard, reset_soft;
	int64_t ev_reset[EVC_NUM], ev_load[EVC_NUM];
	int64_t pci_rx, pci_tx, pci_replay;
	int64_t sram_size, tpc_mask, security, device_id, revision;
	int64_t open_counter;
	struct gaudi_owner owner;
	bool owner_ok;
	char nic[256];			/* the card's interfaces, space-separated */
	int64_t nic_mask, nic_ext_mask;	/* HW_IP_INFO; NA unknown */
	bool nic_aux;			/* gaudi.ko's gaudi.en.N device exists */
	bool nic_bound;			/* a driver (gaudi_en) is bound to it */
	bool nic_map;			/* the board map applies (DL1-style) */
	char nic_mask_s[24], nic_ext_s[24];	/* the masks as 0x... */
	struct nic_port ports[NIC_PORTS];

	/* identity and topology (ident.c) */
	char serial[64];
	char uuid[IDENT_UUID_LEN];
	int64_t numa_node;		/* NA unknown */
	char cpulist[256];		/* local_cpulist, "" unknown */
	char drv_version[64];
	char timestamp[32];		/* when this repetition read the card */
	/* HL_INFO_CLK_THROTTLE_REASON bits, DRAM row replacement */
	int64_t throttle;		/* HL_CLK_THROTTLE_* bits; NA */
	int64_t rows_replaced, rows_pending;

	enum health health;
	char why[256];
};

/* What a view needs (bits), so that a -Q of two fields stays cheap. */
enum {
	N_SYSFS = 1 << 0, N_HWMON = 1 << 1, N_HWIP = 1 << 2, N_MEM = 1 << 3,
	N_UTIL = 1 << 4, N_POWER = 1 << 5, N_ENERGY = 1 << 6, N_CLK = 1 << 7,
	N_RESET = 1 << 8, N_EVENTS = 1 << 9, N_PCI = 1 << 10,
	N_OWNER = 1 << 11, N_NIC = 1 << 12, N_FW = 1 << 13,
	N_IDENT = 1 << 14, N_THROTTLE = 1 << 15, N_ROWS = 1 << 16,
	N_ALL = (1 << 17) - 1,
	/* the needs that only the control node answers */
	N_CTRL = N_ALL & ~(N_SYSFS | N_FW | N_HWMON | N_NIC | N_IDENT),
};

/* ---- processes holding cards (procs.c) --------------------------------- */

struct proc {
	int pid;
	int card;		/* index into cards, -1 unknown */
	char comm[32];
	char node[32];
	int64_t client_id;
	int64_t mem;		/* bytes, sum of drm-total-* */
	bool owner;		/* gaudi-owner-* keys on this descriptor */
	const char *source;	/* "fdinfo", "fd", "owner query" */
};

struct proc_list {
	struct proc *v;
	unsigned int n, cap;
	bool partial;		/* some /proc/<pid>/fd were not readable */
};

/* ---- fields (fields.c) ------------------------------------------------- */

enum vkind { V_NA, V_INT, V_NUM, V_STR };

struct val {
	enum vkind kind;
	int64_t i;
	double d;
	int prec;
	const char *s;
};

enum sect {
	S_PRODUCT, S_FIRMWARE, S_PCI, S_CLOCKS, S_TEMPERATURE, S_POWER,
	S_MEMORY, S_UTILIZATION, S_EVENTS, S_RESET, S_HEALTH, S_NIC, S_NUM
};
extern const char *const sect_names[S_NUM];
extern const char *const sect_titles[S_NUM];

enum fid {
	Q_INDEX, Q_NAME, Q_BUS, Q_MODULE, Q_DRIVER, Q_STATUS, Q_DEVID, Q_REV,
	Q_SECURITY, Q_TPC, Q_CTRL, Q_COMPUTE,
	Q_SERIAL, Q_UUID, Q_DRV_VERSION, Q_TIMESTAMP,
	Q_FW0,	/* + NUM_FW */
	Q_PCI_RX = Q_FW0 + NUM_FW, Q_PCI_TX, Q_PCI_REPLAY, Q_NUMA, Q_CPUS,
	Q_CLK_CUR, Q_CLK_MAX, Q_THR_POWER, Q_THR_THERMAL,
	Q_TEMP, Q_TEMP_LIMIT, Q_TEMP_CRIT,
	Q_POWER, Q_POWER_CAP, Q_ENERGY, Q_VOLT, Q_CURR,
	Q_MEM_TOTAL, Q_MEM_USED, Q_MEM_FREE, Q_SRAM, Q_ROWS_REPLACED,
	Q_ROWS_PENDING,
	Q_UTIL,
	Q_EV_SERR, Q_EV_DERR, Q_EV_FATAL, Q_EV_TOTAL,
	Q_EV_SERR_R, Q_EV_DERR_R, Q_EV_FATAL_R,
	Q_RESET_HARD, Q_RESET_SOFT, Q_OPEN_COUNTER, Q_OWNER_PID,
	Q_OWNER_COMM,
	Q_HEALTH, Q_HEALTH_WHY,
	Q_NIC,
	Q_NIC_COUNT, Q_NIC_EXT, Q_NIC_VISIBLE, Q_NIC_UP, Q_NIC_MASK,
	Q_NIC_EXT_MASK,
	Q_NUM
};

struct field {
	const char *name;	/* -Q name, also the JSON key */
	const char *label;	/* -q label */
	const char *unit;	/* "" none */
	enum sect sect;		/* S_NUM: -Q only (not in -q's sections) */
	unsigned int need;
};
extern struct field fields[Q_NUM];

/* ---- options and the run (options.c, main.c) --------------------------- */

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

struct smi_opt {
	const char *prog;
	enum fmt fmt;
	bool noheader, nounits;
	bool utf8;
	int verbose;
};
extern struct smi_opt opt;

/* getopt values of the long options without a letter */
enum { O_FORMAT = 256, O_FW, O_HEALTH, O_PROM, O_HELP_FIELDS, O_PRICE,
       O_ROWS, O_FORCE, O_EVENTS, O_CDI };

/* -n VIEW */
enum nic_view { NV_PORTS, NV_LINK, NV_STATS, NV_TOPO };

enum mode_id {
	M_TABLE, M_LIST, M_REPORT, M_QUERY, M_FW, M_HEALTH, M_PROM,
	M_NIC, M_ACCT, M_RESET, M_POWER, M_EVENTS, M_CDI,
	/* hl-smi's views (compat.c) */
	M_HL_QUERY, M_HL_CSV, M_HL_NIC, M_HL_TOPO, M_HL_ROWS,
	M_NUM
};

struct smi;

/* What main() knows of a view or action (the table in main.c). */
struct mode {
	int opt;		/* getopt value that picks it, 0 the default */
	unsigned int need;	/* what collect() reads for it */
	unsigned int flags;	/* MF_* */
	void (*run)(struct smi *s);
};
enum {
	MF_FORMAT = 1 << 0,	/* takes --format (text or json) */
	MF_CSV = 1 << 1,	/* takes --format csv too */
	MF_ACTION = 1 << 2,	/* writes sysfs: collects nothing, no -l */
	MF_NOSIGNAL = 1 << 3,	/* no SIGINT handler: a signal ends it */
	MF_ROWS = 1 << 4,	/* -l: no blank line between repetitions */
	MF_PROCS = 1 << 5,	/* shows processes: scan them (unless -d) */
};
extern const struct mode modes[M_NUM];

/* Everything a run works on: the options, then the cards and processes. */
struct smi {
	enum mode_id mode;
	const char *ids;		/* -i */
	const char *display, *qfields;	/* -d, -Q as given */
	long loop, count, watts;	/* -l, -c, -p */
	bool force;			/* --force: -r also a held card */
	double price;			/* --price, per card-hour */
	enum nic_view nic_view;		/* -n */
	bool sects[S_NUM], procs_too;	/* -d */
	enum fid q[Q_NUM * 2];		/* -Q */
	unsigned int nq;

	struct card *cards;
	unsigned int ncards;
	int *sel;			/* cards chosen with -i */
	struct proc_list procs;
	char drvsum[64];		/* "driver (extensions)" of the header */
	int status;			/* exit status so far */
};

/* options.c */
void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int parse_args(struct smi *s, int argc, char **argv);
int select_cards(struct smi *s);

/* main.c: whether SIGINT or SIGTERM came (views that loop themselves) */
bool smi_stopped(void);

/* events.c */
void run_events(struct smi *s);

/* cdi.c */
void run_cdi(struct smi *s);

/* collect.c */
int ev_class(unsigned int id);	/* EVC_* of an event id */
void chomp(char *s);
void str_lower(char *s);
int read_at(int dirfd, const char *name, char *buf, size_t len);
int64_t read_int_at(int dirfd, const char *name);
int write_at(int dirfd, const char *name, const char *val);
/* Directory @name below the open directory @dirfd, or NULL. */
DIR *opendir_at(int dirfd, const char *name);
void card_open_control(struct card *c, bool *warned);
void card_clear(struct card *c);
void collect(struct card *c, unsigned int need);

/* ident.c */
extern const char *ident_node_dir, *ident_module_dir;	/* host tests */
int ident_eeprom_serial(const char *e, size_t n, char *out, size_t len);
void ident_uuid(const char *serial, char out[IDENT_UUID_LEN]);
void ident_collect(struct card *c);

/* nic.c */
void nic_collect(struct card *c, int pcifd);
void nic_clear(struct card *c);
int dl1_peer(int module, int port, int *peer_port);
bool dl1_host(const struct card *cards, unsigned int ncards);
void nic_apply_map(struct card *cards, unsigned int ncards);
int card_of_module(const struct smi *s, int module);
unsigned int nic_count(const struct card *c, int what);
enum { NC_ENABLED, NC_EXTERNAL, NC_VISIBLE, NC_UP };

/* acct.c */
void run_acct(struct smi *s);

/* out_nic.c */
void run_nic(struct smi *s);
void nic_report_text(const struct smi *s, const struct card *c);
void nic_report_json(const struct smi *s, const struct card *c);
const char *nic_peer_text(const struct smi *s, const struct nic_port *p,
			  char *buf, size_t len);

/* health.c */
bool ctrl_unreadable(const struct card *c);
void judge(struct card *c);
int health_exit(const struct smi *s);

/* procs.c */
void scan_procs(struct proc_list *pl, struct card *cards,
		unsigned int ncards);

/* fields.c */
/* The compute (@control false) or control node of @c, or NULL. */
const char *card_node(const struct card *c, bool control);
void fields_init(void);
struct val vint(int64_t v);
struct val vnum(int64_t v, double div, int prec);
struct val field_get(const struct card *c, enum fid f);
const char *val_text(struct val v, char *buf, size_t len);
unsigned int fields_need(const enum fid *q, unsigned int nq);
bool sect_has_data(const struct card *c, enum sect s);

/* out_text.c */
void run_table(struct smi *s);
void run_list(struct smi *s);
void run_fw(struct smi *s);
void csv_cell(FILE *f, const char *s);
void report_text(const struct smi *s);
void health_text(const struct smi *s);

/* out_csv.c */
void query_csv(const struct smi *s);

/* out_json.c */
size_t utf8_seq_len(const unsigned char *s);
void json_str(FILE *f, const char *s);
void json_num(FILE *f, double v, int prec);
void query_json(const struct smi *s);
void report_json(const struct smi *s);
void health_json(const struct smi *s);

/* out_prom.c */
void run_prometheus(struct smi *s);

/* compat.c */
bool compat_wanted(int argc, char **argv);
int compat_parse(struct smi *s, int argc, char **argv);
void run_hl_query(struct smi *s);
void run_hl_csv(struct smi *s);
void run_hl_nic(struct smi *s);
void run_hl_topo(struct smi *s);
void run_hl_rows(struct smi *s);

/* actions.c */
void run_reset(struct smi *s);
void run_power(struct smi *s);

#endif /* GAUDI_SMI_H */
