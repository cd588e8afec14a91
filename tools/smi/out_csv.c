// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gaudi-smi: -Q as comma-separated values, a header line of the field names
 * (with units) then a line a card; --format csv,noheader,nounits drop the
 * header and the units.  Also -Q's default text form.
 */
#include <stdio.h>
#include <string.h>

#include "smi.h"

void csv_cell(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
}

void query_csv(const struct smi *s)
{
	char buf[FWV_LEN + 16], cell[FWV_LEN + 32];
	const struct card *cards = s->cards;
	const enum fid *q = s->q;
	unsigned int i, j, nq = s->nq;

	if (!opt.noheader) {
		for (j = 0; j < nq; j++) {
			printf("%s%s", j ? ", " : "", fields[q[j]].name);
			if (!opt.nounits && fields[q[j]].unit[0])
				printf(" [%s]", fields[q[j]].unit);
		}
		printf("\n");
	}
	for (i = 0; i < s->ncards; i++) {
		if (!s->sel[i])
			continue;
		for (j = 0; j < nq; j++) {
			struct val v = field_get(&cards[i], q[j]);

			val_text(v, buf, sizeof(buf));
			if (v.kind != V_NA && v.kind != V_STR &&
			    !opt.nounits && fields[q[j]].unit[0])
				snprintf(cell, sizeof(cell), "%s %s", buf,
					 fields[q[j]].unit);
			else
				snprintf(cell, sizeof(cell), "%s", buf);
			printf("%s", j ? ", " : "");
			csv_cell(stdout, cell);
		}
		printf("\n");
	}
}
