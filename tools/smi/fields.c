// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: fields.  The table of every value a card shows (its -Q name,
 * -q label, unit, -q section and what collect() must read for it) and the
 * value of a field of a card, shared by all the output formats.
 */
#include <math.h>
#include <stdio.h>

#include "smi.h"

const char *const sect_names[S_NUM] = {
	"product", "firmware", "pci", "clocks", "temperature", "power",
	"memory", "utilization", "events", "reset", "health", "nic"
};
const char *const sect_titles[S_NUM] = {
	"Product", "Firmware versions", "PCI", "Clocks", "Temperature",
	"Power", "Memory", "Utilization", "Events / ECC", "Reset",
	"Health", "NIC ports"
};

struct field fields[Q_NUM] = {
	[Q_INDEX] = { "index", "Index", "", S_PRODUCT, 0 },
	[Q_NAME] = { "name", "Product name", "", S_PRODUCT, N_HWIP },
	[Q_BUS] = { "pci.bus_id", "Bus id", "", S_PCI, 0 },
	[Q_MODULE] = { "module_id", "Module id", "", S_PRODUCT, N_HWIP },
	[Q_DRIVER] = { "driver", "Driver", "", S_PRODUCT, 0 },
	[Q_STATUS] = { "status", "Status", "", S_PRODUCT, 0 },
	[Q_DEVID] = { "pci.device_id", "Device id", "", S_PCI, N_SYSFS },
	[Q_REV] = { "pci.revision", "Revision", "", S_PCI, N_SYSFS },
	[Q_SECURITY] = { "security_enabled", "Security enabled", "",
			 S_PRODUCT, N_SYSFS },
	[Q_TPC] = { "tpc_mask", "TPC enabled mask", "", S_PRODUCT, N_HWIP },
	[Q_CTRL] = { "node.control", "Control node", "", S_PRODUCT, 0 },
	[Q_COMPUTE] = { "node.compute", "Compute node", "", S_PRODUCT, 0 },
	[Q_SERIAL] = { "serial", "Serial number", "", S_PRODUCT, N_IDENT },
	[Q_UUID] = { "uuid", "UUID", "", S_PRODUCT, N_IDENT },
	[Q_DRV_VERSION] = { "driver_version", "Driver version", "", S_PRODUCT,
			    N_IDENT },
	[Q_NUMA] = { "numa_node", "NUMA node", "", S_PCI, N_IDENT },
	[Q_CPUS] = { "cpu_affinity", "CPU affinity", "", S_PCI, N_IDENT },
	[Q_TIMESTAMP] = { "timestamp", "Timestamp", "", S_NUM, 0 },
	[Q_THR_POWER] = { "clocks.throttle.power", "Power throttling", "",
			  S_CLOCKS, N_THROTTLE },
	[Q_THR_THERMAL] = { "clocks.throttle.thermal", "Thermal throttling", "",
			    S_CLOCKS, N_THROTTLE },
	[Q_ROWS_REPLACED] = { "memory.rows.replaced", "HBM rows replaced", "",
			      S_MEMORY, N_ROWS },
	[Q_ROWS_PENDING] = { "memory.rows.pending", "HBM rows pending replacement",
			     "", S_MEMORY, N_ROWS },
	[Q_PCI_RX] = { "pci.rx", "RX throughput", "KB/s", S_PCI, N_PCI },
	[Q_PCI_TX] = { "pci.tx", "TX throughput", "KB/s", S_PCI, N_PCI },
	[Q_PCI_REPLAY] = { "pci.replay", "Replay count", "", S_PCI, N_PCI },
	[Q_CLK_CUR] = { "clocks.mme", "MME clock", "MHz", S_CLOCKS,
			N_CLK | N_SYSFS },
	[Q_CLK_MAX] = { "clocks.max.mme", "MME clock max", "MHz", S_CLOCKS,
			N_CLK | N_SYSFS },
	[Q_TEMP] = { "temperature", "Temperature", "C", S_TEMPERATURE,
		     N_HWMON },
	[Q_TEMP_LIMIT] = { "temperature.limit", "Temperature limit", "C",
			   S_TEMPERATURE, N_HWMON },
	[Q_TEMP_CRIT] = { "temperature.critical", "Temperature critical",
			  "C", S_TEMPERATURE, N_HWMON },
	[Q_POWER] = { "power.draw", "Power draw", "W", S_POWER,
		      N_POWER | N_HWMON },
	[Q_POWER_CAP] = { "power.limit", "Power limit", "W", S_POWER,
			  N_SYSFS },
	[Q_ENERGY] = { "energy", "Energy since power-on", "J", S_POWER,
		       N_ENERGY },
	[Q_VOLT] = { "voltage", "Voltage", "mV", S_POWER, N_HWMON },
	[Q_CURR] = { "current", "Current", "mA", S_POWER, N_HWMON },
	[Q_MEM_TOTAL] = { "memory.total", "HBM total", "MiB", S_MEMORY,
			  N_HWIP },
	[Q_MEM_USED] = { "memory.used", "HBM used", "MiB", S_MEMORY,
			 N_HWIP | N_MEM },
	[Q_MEM_FREE] = { "memory.free", "HBM free", "MiB", S_MEMORY, N_MEM },
	[Q_SRAM] = { "memory.sram", "SRAM", "KiB", S_MEMORY, N_HWIP },
	[Q_UTIL] = { "utilization", "Utilization", "%", S_UTILIZATION,
		     N_UTIL },
	[Q_EV_SERR] = { "events.ecc_corrected", "ECC corrected", "",
			S_EVENTS, N_EVENTS },
	[Q_EV_DERR] = { "events.ecc_uncorrected", "ECC uncorrected", "",
			S_EVENTS, N_EVENTS },
	[Q_EV_FATAL] = { "events.fatal", "Fatal", "", S_EVENTS, N_EVENTS },
	[Q_EV_TOTAL] = { "events.total", "All events", "", S_EVENTS,
			 N_EVENTS },
	[Q_EV_SERR_R] = { "events.reset.ecc_corrected",
			  "ECC corrected since reset", "", S_EVENTS, N_EVENTS },
	[Q_EV_DERR_R] = { "events.reset.ecc_uncorrected",
			  "ECC uncorrected since reset", "", S_EVENTS,
			  N_EVENTS },
	[Q_EV_FATAL_R] = { "events.reset.fatal", "Fatal since reset", "",
			   S_EVENTS, N_EVENTS },
	[Q_RESET_HARD] = { "reset.hard", "Hard resets", "", S_RESET,
			   N_RESET | N_SYSFS },
	[Q_RESET_SOFT] = { "reset.soft", "Soft resets", "", S_RESET,
			   N_RESET | N_SYSFS },
	[Q_OPEN_COUNTER] = { "open_counter", "Compute opens", "", S_RESET,
			     N_OWNER },
	[Q_OWNER_PID] = { "owner.pid", "Holder pid", "", S_RESET, N_OWNER },
	[Q_OWNER_COMM] = { "owner.command", "Holder command", "", S_RESET,
			   N_OWNER },
	[Q_HEALTH] = { "health", "Verdict", "", S_HEALTH, N_ALL & ~N_NIC },
	[Q_HEALTH_WHY] = { "health.reason", "Reason", "", S_HEALTH,
			   N_ALL & ~N_NIC },
	[Q_NIC] = { "nic.ports", "Interfaces", "", S_NIC, N_NIC },
	[Q_NIC_COUNT] = { "nic.ports.count", "Ports enabled", "", S_NIC,
			  N_NIC | N_HWIP },
	[Q_NIC_EXT] = { "nic.ports.external", "Scale-out ports", "", S_NIC,
			N_NIC | N_HWIP },
	[Q_NIC_VISIBLE] = { "nic.ports.visible",
			    "Ports with an interface here", "", S_NIC,
			    N_NIC | N_HWIP },
	[Q_NIC_UP] = { "nic.ports.up", "Ports with link", "", S_NIC,
		       N_NIC | N_HWIP },
	[Q_NIC_MASK] = { "nic.ports.mask", "Ports mask", "", S_NIC,
			 N_NIC | N_HWIP },
	[Q_NIC_EXT_MASK] = { "nic.ports.external_mask", "Scale-out ports mask",
			     "", S_NIC, N_NIC | N_HWIP },
};

static char fw_field_names[NUM_FW][32];

void fields_init(void)
{
	unsigned int i;

	for (i = 0; i < NUM_FW; i++) {
		snprintf(fw_field_names[i], sizeof(fw_field_names[i]),
			 "fw.%s", fw_attrs[i].key);
		fields[Q_FW0 + i] = (struct field){ fw_field_names[i],
			fw_attrs[i].label, "", S_FIRMWARE, N_FW };
	}
}

const char *card_node(const struct card *c, bool control)
{
	if (!c->gc)	/* a host test's fake card */
		return c->fake_node[control];
	return control ? gaudi_card_control_node(c->gc) :
			 gaudi_card_compute_node(c->gc);
}

struct val vint(int64_t v)
{
	return (struct val){ .kind = v == NA ? V_NA : V_INT, .i = v };
}

struct val vnum(int64_t v, double div, int prec)
{
	if (v == NA)
		return (struct val){ .kind = V_NA };
	return (struct val){ .kind = V_NUM, .d = (double)v / div,
			     .prec = prec };
}

static struct val vstr(const char *s)
{
	return (struct val){ .kind = s ? V_STR : V_NA, .s = s };
}

/* Whether the ports are known: a mask from the driver or gaudi.en. */
static bool nic_known(const struct card *c)
{
	return (c->nic_mask != NA && c->nic_mask) || c->nic_aux;
}

struct val field_get(const struct card *c, enum fid f)
{
	const struct temp *t = c->ntemps ? &c->temps[0] : NULL;
	int64_t e;

	if (f >= Q_FW0 && f < Q_FW0 + NUM_FW)
		return vstr(c->fw_have[f - Q_FW0] && c->fw[f - Q_FW0][0] ?
			    c->fw[f - Q_FW0] : NULL);
	switch (f) {
	case Q_INDEX: return vint(c->index);
	case Q_NAME: return vstr(c->name);
	case Q_BUS: return vstr(c->bus);
	case Q_MODULE: return vint(c->module_id < 0 ? NA : c->module_id);
	case Q_DRIVER: return vstr(c->driver);
	case Q_STATUS: return vstr(c->status);
	case Q_DEVID: return vint(c->device_id);
	case Q_REV: return vint(c->revision);
	case Q_SECURITY: return vint(c->security);
	case Q_TPC: return vint(c->tpc_mask);
	case Q_CTRL: return vstr(card_node(c, true));
	case Q_COMPUTE: return vstr(card_node(c, false));
	case Q_SERIAL: return vstr(c->serial[0] ? c->serial : NULL);
	case Q_UUID: return vstr(c->uuid[0] ? c->uuid : NULL);
	case Q_DRV_VERSION: return vstr(c->drv_version[0] ? c->drv_version :
					NULL);
	case Q_NUMA: return vint(c->numa_node);
	case Q_CPUS: return vstr(c->cpulist[0] ? c->cpulist : NULL);
	case Q_TIMESTAMP: return vstr(c->timestamp[0] ? c->timestamp : NULL);
	case Q_THR_POWER:
	case Q_THR_THERMAL:
		if (c->throttle == NA)
			return vint(NA);
		return vstr(c->throttle & (f == Q_THR_POWER ?
					   HL_CLK_THROTTLE_POWER :
					   HL_CLK_THROTTLE_THERMAL) ?
			    "active" : "not active");
	case Q_ROWS_REPLACED: return vint(c->rows_replaced);
	case Q_ROWS_PENDING: return vint(c->rows_pending);
	case Q_PCI_RX: return vint(c->pci_rx);
	case Q_PCI_TX: return vint(c->pci_tx);
	case Q_PCI_REPLAY: return vint(c->pci_replay);
	case Q_CLK_CUR: return vint(c->clk_cur);
	case Q_CLK_MAX: return vint(c->clk_max);
	case Q_TEMP: return t ? vnum(t->mc, 1000, 0) : vint(NA);
	case Q_TEMP_LIMIT: return t ? vnum(t->max_mc, 1000, 0) : vint(NA);
	case Q_TEMP_CRIT: return t ? vnum(t->crit_mc, 1000, 0) : vint(NA);
	case Q_POWER: return vnum(c->power_mw, 1000, 2);
	case Q_POWER_CAP: return vnum(c->cap_mw, 1000, 2);
	case Q_ENERGY: return vnum(c->energy_uj, 1e6, 3);
	case Q_VOLT: return vint(c->volt_mv);
	case Q_CURR: return vint(c->curr_ma);
	case Q_MEM_TOTAL: return vint(c->mem_total == NA ? NA :
				      c->mem_total >> 20);
	case Q_MEM_USED:
		return vint(c->mem_total == NA || c->mem_free == NA ? NA :
			    (c->mem_total - c->mem_free) >> 20);
	case Q_MEM_FREE: return vint(c->mem_free == NA ? NA :
				     c->mem_free >> 20);
	case Q_SRAM: return vint(c->sram_size == NA ? NA : c->sram_size >> 10);
	case Q_UTIL: return vint(c->util);
	case Q_EV_SERR: return vint(c->ev_load[EVC_SERR]);
	case Q_EV_DERR: return vint(c->ev_load[EVC_DERR]);
	case Q_EV_FATAL: return vint(c->ev_load[EVC_FATAL]);
	case Q_EV_TOTAL:
		e = c->ev_load[0];
		if (e != NA)
			e += c->ev_load[1] + c->ev_load[2] + c->ev_load[3];
		return vint(e);
	case Q_EV_SERR_R: return vint(c->ev_reset[EVC_SERR]);
	case Q_EV_DERR_R: return vint(c->ev_reset[EVC_DERR]);
	case Q_EV_FATAL_R: return vint(c->ev_reset[EVC_FATAL]);
	case Q_RESET_HARD: return vint(c->reset_hard);
	case Q_RESET_SOFT: return vint(c->reset_soft);
	case Q_OPEN_COUNTER: return vint(c->open_counter);
	case Q_OWNER_PID:
		if (!c->owner_ok)
			return vint(NA);
		return vint(c->owner.state == GAUDI_OWNER_STATE_HELD ?
			    c->owner.pid : 0);
	case Q_OWNER_COMM:
		if (!c->owner_ok)
			return vint(NA);
		return vstr(c->owner.state == GAUDI_OWNER_STATE_HELD ?
			    c->owner.comm : "");
	case Q_HEALTH: return vstr(health_names[c->health]);
	case Q_HEALTH_WHY: return vstr(c->why);
	case Q_NIC: return vstr(c->nic[0] ? c->nic : NULL);
	case Q_NIC_COUNT: return nic_known(c) ? vint(nic_count(c, NC_ENABLED)) :
				 vint(NA);
	case Q_NIC_EXT: return nic_known(c) ? vint(nic_count(c, NC_EXTERNAL)) :
			       vint(NA);
	case Q_NIC_VISIBLE: return nic_known(c) ?
				   vint(nic_count(c, NC_VISIBLE)) : vint(NA);
	case Q_NIC_UP: return nic_known(c) ? vint(nic_count(c, NC_UP)) :
			      vint(NA);
	case Q_NIC_MASK: return vstr(c->nic_mask_s[0] ? c->nic_mask_s : NULL);
	case Q_NIC_EXT_MASK: return vstr(c->nic_ext_s[0] ? c->nic_ext_s : NULL);
	default: return vint(NA);
	}
}

/* Plain text of a value (no unit). */
const char *val_text(struct val v, char *buf, size_t len)
{
	switch (v.kind) {
	case V_INT: snprintf(buf, len, "%lld", (long long)v.i); break;
	case V_NUM:
		if (isfinite(v.d))
			snprintf(buf, len, "%.*f", v.prec, v.d);
		else
			snprintf(buf, len, "N/A");
		break;
	case V_STR: snprintf(buf, len, "%s", v.s); break;
	default: snprintf(buf, len, "N/A"); break;
	}
	return buf;
}

/* What collect() must read for the fields @q. */
unsigned int fields_need(const enum fid *q, unsigned int nq)
{
	unsigned int i, need = 0;

	for (i = 0; i < nq; i++)
		need |= fields[q[i]].need;
	return need;
}

/*
 * Whether -q shows a section's fields (NIC: only with interfaces, or when
 * a NIC driver is bound whose netdevs may all be in other namespaces).
 */
bool sect_has_data(const struct card *c, enum sect s)
{
	return s != S_NIC || c->nic[0] || c->nic_bound;
}
