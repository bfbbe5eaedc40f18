/*
 * liblinear_timer times liblinear's train() alone (no file reading) on
 * svmlight files, for BenchmarkSVMCoil100. It links against the installed
 * liblinear 2.3 shared library (Debian liblinear4) and declares the parts of
 * liblinear's API it uses, as documented in liblinear 2.3's linear.h.
 *
 * usage: liblinear_timer solver C bias eps outdir file...
 * For each file it trains one model, writes it to outdir/<i>.model (not
 * timed), and finally prints the total training time in seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct feature_node { int index; double value; };
struct problem { int l, n; double *y; struct feature_node **x; double bias; };
struct parameter {
	int solver_type;
	double eps;
	double C;
	int nr_weight;
	int *weight_label;
	double *weight;
	double p;
	double *init_sol;
};
struct model;
struct model *train(const struct problem *prob, const struct parameter *param);
int save_model(const char *model_file_name, const struct model *model_);
void free_and_destroy_model(struct model **model_ptr_ptr);
void set_print_string_function(void (*print_func)(const char *));
const char *check_parameter(const struct problem *prob, const struct parameter *param);

static void quiet(const char *s) { (void)s; }

/* read_problem parses an svmlight file with 1-based increasing indices. */
static int read_problem(const char *path, double bias, struct problem *prob) {
	FILE *f = fopen(path, "r");
	if (!f) return -1;
	size_t cap = 1 << 16, nnz = 0, rows = 0, rcap = 1024;
	struct feature_node *nodes = malloc(cap * sizeof *nodes);
	size_t *start = malloc(rcap * sizeof *start);
	double *y = malloc(rcap * sizeof *y);
	int maxidx = 0;
	char *line = NULL;
	size_t lcap = 0;
	while (getline(&line, &lcap, f) > 0) {
		char *p = line, *end;
		double label = strtod(p, &end);
		if (end == p) continue;
		if (rows == rcap) {
			rcap *= 2;
			start = realloc(start, rcap * sizeof *start);
			y = realloc(y, rcap * sizeof *y);
		}
		y[rows] = label;
		start[rows] = nnz;
		p = end;
		for (;;) {
			long idx = strtol(p, &end, 10);
			if (end == p || *end != ':') break;
			p = end + 1;
			double v = strtod(p, &end);
			p = end;
			if (nnz + 2 >= cap) {
				cap *= 2;
				nodes = realloc(nodes, cap * sizeof *nodes);
			}
			nodes[nnz].index = (int)idx;
			nodes[nnz].value = v;
			nnz++;
			if (idx > maxidx) maxidx = (int)idx;
		}
		if (nnz + 2 >= cap) {
			cap *= 2;
			nodes = realloc(nodes, cap * sizeof *nodes);
		}
		if (bias >= 0) {
			nodes[nnz].index = -2; /* set below, once n is known */
			nodes[nnz].value = bias;
			nnz++;
		}
		nodes[nnz++].index = -1;
		rows++;
	}
	free(line);
	fclose(f);
	prob->l = (int)rows;
	prob->n = maxidx + (bias >= 0 ? 1 : 0);
	prob->bias = bias;
	prob->y = y;
	prob->x = malloc(rows * sizeof *prob->x);
	for (size_t i = 0; i < nnz; i++)
		if (nodes[i].index == -2) nodes[i].index = prob->n;
	for (size_t i = 0; i < rows; i++) prob->x[i] = nodes + start[i];
	free(start);
	return 0;
}

int main(int argc, char **argv) {
	if (argc < 7) {
		fprintf(stderr, "usage: %s solver C bias eps outdir file...\n", argv[0]);
		return 2;
	}
	struct parameter param = {0};
	param.solver_type = atoi(argv[1]);
	param.C = atof(argv[2]);
	double bias = atof(argv[3]);
	param.eps = atof(argv[4]);
	param.p = 0.1;
	const char *outdir = argv[5];
	set_print_string_function(quiet);
	double total = 0;
	for (int k = 6; k < argc; k++) {
		struct problem prob;
		if (read_problem(argv[k], bias, &prob) != 0) {
			fprintf(stderr, "%s: cannot read\n", argv[k]);
			return 1;
		}
		const char *err = check_parameter(&prob, &param);
		if (err) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		struct timespec t0, t1;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		struct model *m = train(&prob, &param);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		total += (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
		char out[4096];
		snprintf(out, sizeof out, "%s/%d.model", outdir, k - 6);
		if (save_model(out, m) != 0) {
			fprintf(stderr, "%s: cannot save\n", out);
			return 1;
		}
		free_and_destroy_model(&m);
		free(prob.x[0]);
		free(prob.x);
		free(prob.y);
	}
	printf("%.9f\n", total);
	return 0;
}
