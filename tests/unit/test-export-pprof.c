// SPDX-License-Identifier: GPL-2.0
/*
 * export/: the pprof writer decoded back (zlib + protobuf-c's own unpacker) and checked
 * against profile.proto's rules (string_table[0] "", ids non-zero and unique, references that
 * resolve, leaf-first location ids, one value per sample type) and against the graph's
 * numbers; the speedscope writer's JSON read back with output/'s JSON reader where it can be.
 */
#include <errno.h>
#include <zlib.h>

#include "profiler/export/export.h"
#include "profile.pb-c.h"
#include "tests/tap.h"
#include "tests/unit/cg-helpers.h"

typedef Perftools__Profiles__Profile pb_profile;

/* Gunzip @len bytes; NULL when they are not a whole gzip stream. */
static uint8_t *gunzip(const uint8_t *in, size_t len, size_t *out_len)
{
	size_t cap = 1 << 16;
	uint8_t *out = malloc(cap);
	z_stream z = { 0 };
	int ret;

	if (!out || inflateInit2(&z, 15 + 16) != Z_OK)
		return free(out), NULL;
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	do {
		if (z.total_out == cap) {
			cap *= 2;
			out = realloc(out, cap);
		}
		z.next_out = out + z.total_out;
		z.avail_out = (uInt)(cap - z.total_out);
		ret = inflate(&z, Z_NO_FLUSH);
	} while (ret == Z_OK);
	*out_len = z.total_out;
	inflateEnd(&z);
	if (ret != Z_STREAM_END)
		return free(out), NULL;
	return out;
}

static pb_profile *export_and_decode(const struct export_event *ev, const struct export_opts *o,
				     int *err)
{
	struct capture c;
	uint8_t *raw;
	size_t len;
	char *gz;
	pb_profile *p;

	*err = export_pprof(capture_open(&c), ev, o);
	gz = capture_close(&c);
	raw = gunzip((const uint8_t *)gz, c.len, &len);
	p = raw ? perftools__profiles__profile__unpack(NULL, len, raw) : NULL;
	free(raw);
	free(gz);
	return p;
}

static const char *S(const pb_profile *p, int64_t i)
{
	return i >= 0 && (size_t)i < p->n_string_table ? p->string_table[i] : "<bad index>";
}

static const Perftools__Profiles__Location *loc_by_id(const pb_profile *p, uint64_t id)
{
	for (size_t i = 0; i < p->n_location; i++)
		if (p->location[i]->id == id)
			return p->location[i];
	return NULL;
}

static const Perftools__Profiles__Function *fn_by_id(const pb_profile *p, uint64_t id)
{
	for (size_t i = 0; i < p->n_function; i++)
		if (p->function[i]->id == id)
			return p->function[i];
	return NULL;
}

static const Perftools__Profiles__Mapping *map_by_id(const pb_profile *p, uint64_t id)
{
	for (size_t i = 0; i < p->n_mapping; i++)
		if (p->mapping[i]->id == id)
			return p->mapping[i];
	return NULL;
}

/* Ids of one kind are 1..n, each once (pprof's CheckValid: non-zero and unique). */
static bool ids_valid(const pb_profile *p)
{
	for (size_t i = 0; i < p->n_location; i++)
		if (p->location[i]->id == 0 || loc_by_id(p, p->location[i]->id) != p->location[i])
			return false;
	for (size_t i = 0; i < p->n_function; i++)
		if (p->function[i]->id == 0 || fn_by_id(p, p->function[i]->id) != p->function[i])
			return false;
	for (size_t i = 0; i < p->n_mapping; i++)
		if (p->mapping[i]->id == 0 || map_by_id(p, p->mapping[i]->id) != p->mapping[i])
			return false;
	return true;
}

/* The function name of a sample's location @k (0: leaf). */
static const char *frame_name(const pb_profile *p, const Perftools__Profiles__Sample *s, size_t k)
{
	const Perftools__Profiles__Location *l = loc_by_id(p, s->location_id[k]);
	const Perftools__Profiles__Function *f;

	if (!l || l->n_line != 1 || !(f = fn_by_id(p, l->line[0]->function_id)))
		return "<dangling>";
	return S(p, f->name);
}

static const Perftools__Profiles__Sample *find_sample(const pb_profile *p, const char *leaf,
						      size_t nr)
{
	for (size_t i = 0; i < p->n_sample; i++)
		if (p->sample[i]->n_location_id == nr && !strcmp(frame_name(p, p->sample[i], 0), leaf))
			return p->sample[i];
	return NULL;
}

static const Perftools__Profiles__Label *label(const pb_profile *p,
					       const Perftools__Profiles__Sample *s, const char *k)
{
	for (size_t i = 0; i < s->n_label; i++)
		if (!strcmp(S(p, s->label[i]->key), k))
			return s->label[i];
	return NULL;
}

static void test_pprof(void)
{
	static const uint8_t app_id[20] = { 0xde, 0xad, 0xbe, 0xef, [19] = 0x01 };
	struct export_build_id ids[] = { { .filename = "/bin/app", .id = app_id, .size = 20 } };
	const char *comments[] = { "host: test" };
	struct export_opts o = { .build_ids = ids, .nr_build_ids = 1, .comments = comments,
				 .nr_comments = 1 };
	struct callgraph *cg = callgraph_new();
	struct export_event ev = { .name = "cpu-clock", .cg = cg, .freq = 4000 };
	const Perftools__Profiles__Sample *s;
	uint64_t samples = 0, period = 0;
	pb_profile *p;
	int err;

	cg_test_add_task(cg, "app", 10, 11, "leaf#0x1100@/bin/app;mid#0x1000@/bin/app;main#0x900@/bin/app",
			 3000, 3);
	cg_test_add_task(cg, "app", 10, 12, "leaf#0x1100@/bin/app;main#0x900@/bin/app", 2000, 2);
	cg_test_add_task(cg, "app", 10, 11,
			 "clear_page#0xffffffff81000100@[kernel.kallsyms];"
			 "?+0x7777@/lib/libc.so.6;main#0x900@/bin/app", 500, 1);
	cg_test_add_task(cg, "kworker/0:1", 7, 7, "?@[unknown]", 250, 1);

	p = export_and_decode(&ev, &o, &err);
	is_int(err, 0, "pprof: written");
	ok(p != NULL, "pprof: a gzip stream holding a profile.proto message");
	if (!p) {
		callgraph_free(cg);
		return;
	}
	is_str(p->string_table[0], "", "string_table[0] is \"\"");
	ok(ids_valid(p), "location, function and mapping ids non-zero and unique");
	is_int(p->n_sample_type, 2, "two sample types");
	is_str(S(p, p->sample_type[0]->type), "samples", "  samples");
	is_str(S(p, p->sample_type[0]->unit), "count", "  /count");
	is_str(S(p, p->sample_type[1]->type), "cpu-clock", "  the event");
	is_str(S(p, p->sample_type[1]->unit), "nanoseconds", "  in nanoseconds");
	is_str(S(p, p->default_sample_type), "cpu-clock", "default sample type: the event");
	is_str(S(p, p->period_type->type), "cpu-clock", "period type");
	is_int(p->period, 250000, "period: 1e9 / 4000 Hz ns");
	is_int(p->n_comment, 1, "one comment");
	is_str(S(p, p->comment[0]), "host: test", "  its text");

	is_int(p->n_sample, 4, "one sample per distinct (task, stack)");
	for (size_t i = 0; i < p->n_sample; i++) {
		if (p->sample[i]->n_value != 2)
			break;
		samples += p->sample[i]->value[0];
		period += p->sample[i]->value[1];
	}
	is_u64(samples, 7, "sample counts add up");
	is_u64(period, 5750, "periods add up");

	s = find_sample(p, "leaf", 3);
	ok(s && !strcmp(frame_name(p, s, 1), "mid") && !strcmp(frame_name(p, s, 2), "main"),
	   "location ids leaf first: leaf, mid, main");
	ok(s && s->value[0] == 3 && s->value[1] == 3000, "  its values [3, 3000]");
	ok(s && label(p, s, "comm") && !strcmp(S(p, label(p, s, "comm")->str), "app"),
	   "  label comm=app");
	ok(s && label(p, s, "pid") && label(p, s, "pid")->num == 10, "  label pid=10");
	ok(s && label(p, s, "tid") && label(p, s, "tid")->num == 11, "  label tid=11");
	ok(s && loc_by_id(p, s->location_id[0])->address == 0x1100,
	   "  a location's address is its symbol's start");
	ok(s && s->location_id[2] == find_sample(p, "leaf", 2)->location_id[1],
	   "one location for main in every stack");

	s = find_sample(p, "clear_page", 3);
	ok(s != NULL, "a kernel frame keeps its name");
	if (s) {
		const Perftools__Profiles__Location *k = loc_by_id(p, s->location_id[0]);
		const Perftools__Profiles__Location *u = loc_by_id(p, s->location_id[1]);
		const Perftools__Profiles__Mapping *km = map_by_id(p, k->mapping_id);
		const Perftools__Profiles__Mapping *um = map_by_id(p, u->mapping_id);

		is_str(S(p, km->filename), "[kernel.kallsyms]", "  in the [kernel.kallsyms] mapping");
		ok(km->has_functions && km->memory_start == 0xffffffff81000100 &&
		   km->memory_limit == 0xffffffff81000101, "  which has functions and spans it");
		is_str(frame_name(p, s, 1), "[libc.so.6]", "an unresolved frame: [module]");
		is_int(u->address, 0x7777, "  its address kept");
		is_str(S(p, um->filename), "/lib/libc.so.6", "  its mapping names the file");
		is_str(S(p, um->build_id), "", "  no build-id known for it");
	}
	is_str(S(p, p->mapping[0]->filename), "/bin/app", "mapping[0]: the main binary");
	is_str(S(p, p->mapping[0]->build_id), "deadbeef00000000000000000000000000000001",
	       "  with its build-id in hex");
	ok(p->mapping[0]->memory_start == 0x900 && p->mapping[0]->memory_limit == 0x1101,
	   "  spanning its locations");
	s = find_sample(p, "[unknown]", 1);
	ok(s && label(p, s, "comm") && !strcmp(S(p, label(p, s, "comm")->str), "kworker/0:1") &&
	   label(p, s, "pid")->num == 7, "another task's labels");
	perftools__profiles__profile__free_unpacked(p, NULL);

	ev = (struct export_event){ .name = "page-faults:u", .cg = cg, .period = 1 };
	p = export_and_decode(&ev, NULL, &err);
	ok(p && !strcmp(S(p, p->sample_type[1]->unit), "count") && p->period == 1 &&
	   p->n_comment == 0, "another event: unit count, its fixed period");
	if (p)
		perftools__profiles__profile__free_unpacked(p, NULL);
	callgraph_free(cg);

	cg = callgraph_new();
	ev = (struct export_event){ .name = "cpu-clock", .cg = cg };
	p = export_and_decode(&ev, NULL, &err);
	is_int(err, -ENODATA, "an empty graph: -ENODATA");
	if (p)
		perftools__profiles__profile__free_unpacked(p, NULL);
	callgraph_free(cg);
}

static void test_units(void)
{
	char buf[256];
	struct cg_frame f = { .dso = "[unknown]" };

	is_str(export_event_unit("cpu-clock"), "nanoseconds", "cpu-clock: nanoseconds");
	is_str(export_event_unit("task-clock:u"), "nanoseconds", "task-clock:u: nanoseconds");
	is_str(export_event_unit("cpu/cpu-clock/"), "nanoseconds", "cpu/cpu-clock/: nanoseconds");
	is_str(export_event_unit("cpu-clocks"), "count", "cpu-clocks: count");
	is_str(export_event_unit("cycles:pp"), "count", "cycles:pp: count");
	is_str(export_frame_name(&f, buf, sizeof(buf)), "[unknown]", "unresolved, no module");
	f.dso = "/usr/lib/libc.so.6";
	is_str(export_frame_name(&f, buf, sizeof(buf)), "[libc.so.6]", "unresolved in a file");
	f.sym = "memcpy";
	is_str(export_frame_name(&f, buf, sizeof(buf)), "memcpy", "resolved: the symbol");
}

static void test_speedscope(void)
{
	struct callgraph *cg = callgraph_new();
	struct export_event ev = { .name = "cpu-clock", .cg = cg };
	struct export_opts o = { 0 };
	struct json_object j = { 0 };
	struct capture c;
	char *text, err[128];
	int ret;

	cg_test_add_task(cg, "a", 1, 1, "leaf;main", 100, 1);
	cg_test_add_task(cg, "b", 2, 2, "leaf;main", 300, 3);
	cg_test_add_task(cg, "b", 2, 3, "other;main", 50, 1);
	ret = export_speedscope(capture_open(&c), &ev, &o);
	text = capture_close(&c);
	is_int(ret, 0, "speedscope: written");
	is_int(json_parse(text, strlen(text), &j, err, sizeof(err)), 0, "  valid JSON (%s)", err);
	ok(json_get(&j, "$schema") && !strcmp(json_get(&j, "$schema")->str,
					      "https://www.speedscope.app/file-format-schema.json"),
	   "  $schema");
	ok(strstr(text, "\"frames\":[\n{\"name\":\"main\",\"file\":\"app\"},\n"
			"{\"name\":\"leaf\",\"file\":\"app\"}"), "  shared frames, root first");
	ok(strstr(text, "{\"type\":\"sampled\",\"name\":\"b\",\"unit\":\"nanoseconds\","
			"\"startValue\":0,\"endValue\":350,\n\"samples\":[\n[0,1],\n[0,2]],\n"
			"\"weights\":[300,50]},\n{\"type\":\"sampled\",\"name\":\"a\""),
	   "  per comm, heaviest first, root-first indices and weights");
	json_object_release(&j);
	free(text);

	o.per_thread = o.weight_samples = true;
	ret = export_speedscope(capture_open(&c), &ev, &o);
	text = capture_close(&c);
	ok(!ret && strstr(text, "\"name\":\"b 2/2\",\"unit\":\"none\",\"startValue\":0,"
			  "\"endValue\":3,") && strstr(text, "\"name\":\"b 2/3\""),
	   "--per-thread names comm pid/tid; sample weights have no unit");
	free(text);
	callgraph_free(cg);
}

static void test_chrome(void)
{
	struct callgraph *cg = callgraph_new();
	struct export_event ev = { .name = "cpu-clock", .cg = cg };
	struct json_object j = { 0 };
	struct capture c;
	char *text, err[128];
	int ret;

	cg_test_add_task(cg, "a", 1, 1, "leaf;main", 100400, 1);
	cg_test_add_task(cg, "b", 2, 2, "leaf;main", 300300, 3);
	cg_test_add_task(cg, "b", 2, 3, "?@/lib/libc.so.6;main", 50000, 1);
	ret = export_chrome(capture_open(&c), &ev, NULL);
	text = capture_close(&c);
	is_int(ret, 0, "chrome: written");
	is_int(json_parse(text, strlen(text), &j, err, sizeof(err)), 0, "  valid JSON (%s)", err);
	ok(strstr(text, "{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":\"0\","
			"\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":0,"
			"\"children\":[5,2]}"), "  (root) with one child per comm");
	ok(strstr(text, "{\"id\":4,\"callFrame\":{\"functionName\":\"leaf\",\"scriptId\":\"0\","
			"\"url\":\"app\",\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":1}"),
	   "  root first: a, main, leaf; hitCount the samples");
	ok(strstr(text, "\"functionName\":\"[libc.so.6]\",\"scriptId\":\"0\","
			"\"url\":\"/lib/libc.so.6\""), "  an unresolved frame named from its module");
	ok(strstr(text, "\"samples\":[4,7,8,1],\n\"timeDeltas\":[0,100,301,50],\n"
			"\"startTime\":0,\"endTime\":451}"),
	   "  one sample per stack, spaced by its weight in us, rounded on the running total");
	json_object_release(&j);
	free(text);
	callgraph_free(cg);
}

int main(void)
{
	test_units();
	test_pprof();
	test_speedscope();
	test_chrome();
	return done_testing();
}
