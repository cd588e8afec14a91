// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi --cdi: a Container Device Interface spec of the cards, for
 * container engines that read CDI (podman, containerd, CRI-O):
 *
 *   gaudi-smi --cdi > /etc/cdi/habana.ai-gaudi.json
 *   podman run --device habana.ai/gaudi=0 ...      (card 0)
 *   podman run --device habana.ai/gaudi=all ...    (every card)
 *
 * One device per card, named by its gaudi-smi index and also by its PCI
 * address, with the card's compute and control nodes, and "all".  The
 * kind is the one Habana's container toolkit uses, so that command lines
 * written for it work unchanged (a host has one or the other's spec).
 * cdiVersion 0.5.0: what Debian's podman (4.3) reads, and newer engines
 * too.  The NIC ports' netdevs are not in the spec: CDI 0.5 cannot move a
 * network interface into a container (Documentation/tools/gaudi-smi.rst,
 * "Containers").
 */
#include <stdio.h>
#include <string.h>

#include "smi.h"

#define CDI_VERSION	"0.5.0"
#define CDI_KIND	"habana.ai/gaudi"

/* The device nodes of card @c as CDI deviceNodes entries. */
static unsigned int nodes(const struct card *c, unsigned int k)
{
	const char *n[2] = { card_node(c, false), card_node(c, true) };
	unsigned int i;

	if (!n[0])
		return k;	/* no compute node: not a device to give */
	for (i = 0; i < 2; i++) {
		if (!n[i])
			continue;
		printf("%s\n          {\"path\": ", k++ ? "," : "");
		json_str(stdout, n[i]);
		printf("}");
	}
	return k;
}

static void device(const char *name, const struct smi *s, int only)
{
	unsigned int i, k = 0;

	printf("    {\n      \"name\": ");
	json_str(stdout, name);
	printf(",\n      \"containerEdits\": {\n        \"deviceNodes\": [");
	for (i = 0; i < s->ncards; i++)
		if (s->sel[i] && (only < 0 || (unsigned int)only == i))
			k = nodes(&s->cards[i], k);
	printf("\n        ]\n      }\n    }");
}

void run_cdi(struct smi *s)
{
	unsigned int i, n = 0;
	char name[32];

	for (i = 0; i < s->ncards; i++)
		if (s->sel[i] && !card_node(&s->cards[i], false))
			err("card %u (%s): no compute node: left out of the spec",
			    i, s->cards[i].bus);
	printf("{\n  \"cdiVersion\": \"%s\",\n  \"kind\": \"%s\",\n  \"devices\": [\n",
	       CDI_VERSION, CDI_KIND);
	for (i = 0; i < s->ncards; i++) {
		const struct card *c = &s->cards[i];

		if (!s->sel[i] || !card_node(c, false))
			continue;
		snprintf(name, sizeof(name), "%u", i);
		printf("%s", n++ ? ",\n" : "");
		device(name, s, (int)i);
		printf(",\n");
		device(c->bus, s, (int)i);
	}
	printf("%s", n ? ",\n" : "");
	device("all", s, -1);
	printf("\n  ]\n}\n");
}
