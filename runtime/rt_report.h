/* rt_report.h: the exit report: JSON (schema in tools/report_schema.json) or a readable stderr table. */
#ifndef OMPNUMA_RT_REPORT_H
#define OMPNUMA_RT_REPORT_H

#include <stdio.h>

/* Write the report the settings ask for (child: the process is a fork of the
 * one that started the runtime; its file gets the suffix ".PID"). Never
 * fails the program and never blocks: an unwritable file or a FIFO without
 * a reader gives one warning and nothing else. */
void rt_report_write(int child);

/* The JSON report into f. 0 or -1. */
int  rt_report_json(FILE *f);
/* The readable summary into f. */
void rt_report_text(FILE *f);

#endif
