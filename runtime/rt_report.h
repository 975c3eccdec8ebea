/* rt_report.h: the exit report: JSON (schema in tools/report_schema.json) or a readable stderr table. */
#ifndef OMPNUMA_RT_REPORT_H
#define OMPNUMA_RT_REPORT_H

#include <stdio.h>

/* Write the report the settings ask for. Never fails the program: an
 * unwritable file gives one warning and nothing else. */
void rt_report_write(void);

/* The JSON report into f. 0 or -1. */
int  rt_report_json(FILE *f);
/* The readable summary into f. */
void rt_report_text(FILE *f);

#endif
