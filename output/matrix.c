// SPDX-License-Identifier: GPL-2.0
/*
 * matrix.c - one kernel's result set as LKP's matrix: key -> one value per run.
 *
 * LKP fills a key that is missing from a run with the Integer 0 and later tells it apart from a
 * measured 0.0 (lib/stats.rb's perf-profile test looks at the class of the median element), so
 * every value carries a "present" flag. Rows stay sorted by key: lookups are binary searches and
 * adding a run is a merge, never a quadratic scan.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

static int row_cmp(const void *a, const void *b)
{
	return strcmp(((const struct matrix_row *)a)->key, ((const struct matrix_row *)b)->key);
}

const struct matrix_row *matrix_find(const struct matrix *m, const char *key)
{
	struct matrix_row probe = { .key = (char *)key };

	if (!m->nr_rows)
		return NULL;
	return bsearch(&probe, m->rows, m->nr_rows, sizeof(*m->rows), row_cmp);
}

bool matrix_has_prefix(const struct matrix *m, const char *prefix)
{
	size_t lo = 0, hi = m->nr_rows, n = strlen(prefix);

	while (lo < hi) {	/* the first key >= prefix */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(m->rows[mid].key, prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nr_rows && !strncmp(m->rows[lo].key, prefix, n);
}

static void row_release(struct matrix_row *r)
{
	free(r->key);
	free(r->v);
	free(r->present);
}

void matrix_release(struct matrix *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_rows; i++)
		row_release(&m->rows[i]);
	for (size_t i = 0; m->sources && i < m->nr_runs; i++)
		free(m->sources[i]);
	free(m->rows);
	free(m->sources);
	memset(m, 0, sizeof(*m));
}

/* A row of @nr_runs fillers. */
static int row_init(struct matrix_row *r, const char *key, size_t nr_runs)
{
	r->key = strdup(key);
	r->v = calloc(nr_runs ? nr_runs : 1, sizeof(*r->v));
	r->present = calloc(nr_runs ? nr_runs : 1, sizeof(*r->present));
	if (!r->key || !r->v || !r->present) {
		row_release(r);
		return -ENOMEM;
	}
	return 0;
}

/* Sort the rows and refuse duplicate keys (the JSON reader leaves that to us). */
static int sort_rows(struct matrix *m, char *err, size_t errlen)
{
	qsort(m->rows, m->nr_rows, sizeof(*m->rows), row_cmp);
	for (size_t i = 1; i < m->nr_rows; i++) {
		if (!strcmp(m->rows[i - 1].key, m->rows[i].key)) {
			snprintf(err, errlen, "duplicate key \"%s\"", m->rows[i].key);
			return -EINVAL;
		}
	}
	return 0;
}

static bool numeric_array(const struct json_member *jm)
{
	for (size_t i = 0; i < jm->nr; i++)
		if (jm->strs[i])
			return false;
	return true;
}

static int read_sources(struct matrix *m, const struct json_member *src, char *err,
			size_t errlen)
{
	if (src->type != JSON_ARRAY) {
		snprintf(err, errlen, "\"stats_source\" is not an array of paths");
		return -EINVAL;
	}
	m->sources = calloc(src->nr ? src->nr : 1, sizeof(*m->sources));
	if (!m->sources)
		return -ENOMEM;
	for (size_t i = 0; i < src->nr; i++) {
		m->sources[i] = strdup(src->strs[i] ? src->strs[i] : "");
		if (!m->sources[i])
			return -ENOMEM;
	}
	return 0;
}

static int fill_rows(struct matrix *m, const struct json_object *o, char *err, size_t errlen)
{
	m->rows = calloc(o->nr ? o->nr : 1, sizeof(*m->rows));
	if (!m->rows)
		return -ENOMEM;
	for (size_t i = 0; i < o->nr; i++) {
		const struct json_member *jm = &o->members[i];
		struct matrix_row *r;
		size_t nr = jm->type == JSON_NUMBER ? 1 : jm->nr;

		/* LKP skips String stats; a scalar is a one-run array. */
		if (!strcmp(jm->key, "stats_source") ||
		    (jm->type != JSON_NUMBER && (jm->type != JSON_ARRAY || !numeric_array(jm))))
			continue;
		if (nr > m->nr_runs) {
			snprintf(err, errlen,
				 "\"%s\" has %zu values but stats_source lists %zu runs", jm->key,
				 nr, m->nr_runs);
			return -EINVAL;
		}
		r = &m->rows[m->nr_rows];
		if (row_init(r, jm->key, m->nr_runs))
			return -ENOMEM;
		m->nr_rows++;
		for (size_t k = 0; k < nr; k++) {
			double v = jm->type == JSON_NUMBER ? jm->num : jm->nums[k];
			bool is_int = jm->type == JSON_NUMBER ? jm->num_is_int : jm->ints[k];

			/* LKP's filler is the Integer 0; anything else was measured. */
			r->v[k] = v;
			r->present[k] = !(is_int && v == 0);
		}
	}
	return sort_rows(m, err, errlen);
}

int matrix_read_json(const char *path, struct matrix *m, char *err, size_t errlen)
{
	struct json_object o;
	const struct json_member *src;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = json_read_file(path, &o, err, errlen);
	if (ret)
		return ret;
	src = json_get(&o, "stats_source");
	if (src) {
		ret = read_sources(m, src, err, errlen);
		if (ret)
			goto out;
		m->nr_runs = src->nr;
	} else {
		/* No sources: as many runs as the longest array (LKP's matrix_cols). */
		for (size_t i = 0; i < o.nr; i++) {
			size_t nr = o.members[i].type == JSON_NUMBER ? 1 : o.members[i].nr;

			if (o.members[i].type != JSON_OTHER && nr > m->nr_runs)
				m->nr_runs = nr;
		}
		m->sources = calloc(m->nr_runs ? m->nr_runs : 1, sizeof(*m->sources));
		if (!m->sources) {
			ret = -ENOMEM;
			goto out;
		}
	}
	ret = fill_rows(m, &o, err, errlen);
out:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (ret)
		matrix_release(m);
	json_object_release(&o);
	return ret;
}

/* Widen every row by one filler column and record the run's source. */
static int add_column(struct matrix *m, const char *source)
{
	size_t n = m->nr_runs + 1;
	char **src = realloc(m->sources, n * sizeof(*src));

	if (!src)
		return -ENOMEM;
	m->sources = src;
	src[n - 1] = NULL;
	for (size_t i = 0; i < m->nr_rows; i++) {
		struct matrix_row *r = &m->rows[i];
		double *v = realloc(r->v, n * sizeof(*v));
		bool *p;

		if (!v)
			return -ENOMEM;
		r->v = v;
		p = realloc(r->present, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		r->present = p;
		v[n - 1] = 0;
		p[n - 1] = false;
	}
	src[n - 1] = strdup(source);
	if (!src[n - 1])
		return -ENOMEM;
	m->nr_runs = n;
	return 0;
}

static int add_values(struct matrix *m, const struct json_object *o, char *err, size_t errlen)
{
	size_t run = m->nr_runs - 1, old_rows = m->nr_rows;
	struct matrix_row *rows;

	rows = realloc(m->rows, (m->nr_rows + o->nr + 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	m->rows = rows;
	for (size_t i = 0; i < o->nr; i++) {
		const struct json_member *jm = &o->members[i];
		struct matrix_row probe = { .key = jm->key }, *r;

		if (jm->type != JSON_NUMBER)
			continue;	/* stats.json is flat; strings and such are not stats */
		r = old_rows ? bsearch(&probe, m->rows, old_rows, sizeof(*r), row_cmp) : NULL;
		if (!r) {
			r = &m->rows[m->nr_rows];
			if (row_init(r, jm->key, m->nr_runs))
				return -ENOMEM;
			m->nr_rows++;
		} else if (r->present[run]) {
			snprintf(err, errlen, "duplicate key \"%s\"", jm->key);
			return -EINVAL;
		}
		r->v[run] = jm->num;
		r->present[run] = true;
	}
	return sort_rows(m, err, errlen);
}

int matrix_add_stats_json(struct matrix *m, const char *path, char *err, size_t errlen)
{
	struct json_object o;
	int ret;

	ret = json_read_file(path, &o, err, errlen);
	if (ret)
		return ret;
	ret = add_column(m, path);
	if (!ret)
		ret = add_values(m, &o, err, errlen);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	json_object_release(&o);
	return ret;
}

/* A measured value always shows it is a Float; the filler is the bare Integer 0. */
static void write_value(FILE *fp, double v, bool present)
{
	char buf[64];

	if (!present) {
		fputs("0", fp);
		return;
	}
	json_format_number(buf, sizeof(buf), v);
	if (!strpbrk(buf, ".en"))
		strcat(buf, ".0");
	fputs(buf, fp);
}

int matrix_write_json(FILE *fp, const struct matrix *m)
{
	bool sources = m->nr_runs > 0;

	for (size_t i = 0; i < m->nr_rows; i++)
		for (size_t k = 0; k < m->nr_runs; k++)
			if (m->rows[i].present[k] && !isfinite(m->rows[i].v[k]))
				return -ERANGE;
	for (size_t k = 0; k < m->nr_runs; k++)
		sources &= m->sources && m->sources[k];
	fputs("{", fp);
	for (size_t i = 0; i < m->nr_rows; i++) {
		fputs(i ? ",\n  " : "\n  ", fp);
		json_write_string(fp, m->rows[i].key);
		fputs(": [", fp);
		for (size_t k = 0; k < m->nr_runs; k++) {
			if (k)
				fputs(", ", fp);
			write_value(fp, m->rows[i].v[k], m->rows[i].present[k]);
		}
		fputs("]", fp);
	}
	if (sources) {
		fputs(m->nr_rows ? ",\n  " : "\n  ", fp);
		fputs("\"stats_source\": [", fp);
		for (size_t k = 0; k < m->nr_runs; k++) {
			if (k)
				fputs(", ", fp);
			json_write_string(fp, m->sources[k]);
		}
		fputs("]", fp);
	}
	fputs("\n}\n", fp);
	return ferror(fp) ? -EIO : 0;
}
