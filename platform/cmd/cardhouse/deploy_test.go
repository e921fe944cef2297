package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cardhouse/platform/store"

	"github.com/prometheus/client_golang/prometheus"
)

// The operator's files in docs/deploy (docs/operations.md, "Running it as a service").
const (
	serviceUnit = "../../../docs/deploy/cardhouse.service"
	alertRules  = "../../../docs/deploy/cardhouse-alerts.yml"
	alertTests  = "../../../docs/deploy/cardhouse-alerts.test.yml"
)

// maxExposure is the highest `systemd-analyze security` exposure the unit may have (0 is the
// tightest, 10 the loosest; "OK" is under 4).
const maxExposure = 2.0

func needTool(t *testing.T, tool string) string {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("%s is not installed: skipping (.ci/run installs it)", tool)
	}
	return path
}

// The systemd unit is valid (systemd-analyze verify, its ExecStart pointed at a real cardhouse
// binary), hardened (systemd-analyze security's exposure at most maxExposure, with a dedicated
// user and no new privileges), and every environment variable it sets is one `cardhouse serve`
// reads.
func TestServiceUnit(t *testing.T) {
	analyze := needTool(t, "systemd-analyze")
	src, err := os.ReadFile(serviceUnit)
	if err != nil {
		t.Fatal(err)
	}
	unit := string(src)
	for _, want := range []string{"User=cardhouse", "NoNewPrivileges=yes", "ProtectSystem=strict", "ExecStart=/usr/local/bin/cardhouse serve"} {
		if !strings.Contains(unit, "\n"+want+"\n") {
			t.Errorf("the unit has no line %q", want)
		}
	}
	bin := cardhouseBinary(t)
	local := filepath.Join(t.TempDir(), "cardhouse.service")
	if err := os.WriteFile(local, []byte(strings.ReplaceAll(unit, "/usr/local/bin/cardhouse", bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(analyze, "verify", local).CombinedOutput(); err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v: %s", err, out)
	}
	out, err := exec.Command(analyze, "security", "--offline=true", local).CombinedOutput()
	if err != nil {
		t.Fatalf("systemd-analyze security: %v: %s", err, out)
	}
	m := regexp.MustCompile(`Overall exposure level for cardhouse\.service: ([0-9.]+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("systemd-analyze security said no exposure level: %s", out)
	}
	if exposure, _ := strconv.ParseFloat(string(m[1]), 64); exposure > maxExposure {
		t.Errorf("the unit's exposure is %.1f, over %.1f: %s", exposure, maxExposure, out)
	} else {
		t.Logf("systemd-analyze security: exposure %.1f", exposure)
	}
	help, err := exec.Command(bin, "serve", "--help").CombinedOutput()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range regexp.MustCompile(`(?m)^Environment=(\w+)=`).FindAllStringSubmatch(unit, -1) {
		if !strings.Contains(string(help), "env "+key[1]) {
			t.Errorf("the unit sets %s, which `cardhouse serve` does not read", key[1])
		}
	}
}

// recorder is a prometheus.Registerer that notes the name of every series registered.
type recorder struct {
	prometheus.Registerer
	names []string
}

var fqName = regexp.MustCompile(`fqName: "([^"]+)"`)

func (r *recorder) Register(c prometheus.Collector) error {
	descs := make(chan *prometheus.Desc)
	go func() { c.Describe(descs); close(descs) }()
	for d := range descs {
		if m := fqName.FindStringSubmatch(d.String()); m != nil {
			r.names = append(r.names, m[1])
		}
	}
	return r.Registerer.Register(c)
}

func (r *recorder) MustRegister(cs ...prometheus.Collector) {
	for _, c := range cs {
		if err := r.Register(c); err != nil {
			panic(err)
		}
	}
}

// The alert rules pass `promtool check rules` and their own `promtool test rules`, and every
// cardhouse_* series they name is one a node registers (registerMetrics, what serve exports).
func TestAlertRules(t *testing.T) {
	st, err := store.Open(context.Background(), store.Config{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec := &recorder{Registerer: prometheus.NewRegistry()}
	registerMetrics(rec, st)
	f, err := os.Open(alertRules)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	named := 0
	series := regexp.MustCompile(`\bcardhouse_[a-z_]+`)
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		if !strings.Contains(line, "expr:") && !strings.HasPrefix(strings.TrimSpace(line), "sum") && !strings.HasPrefix(strings.TrimSpace(line), "/") {
			continue
		}
		for _, name := range series.FindAllString(line, -1) {
			base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count")
			named++
			if !slices.Contains(rec.names, base) {
				t.Errorf("the alert rules name %s, which no node exports (it registers %s)", name, strings.Join(rec.names, ", "))
			}
		}
	}
	if named < 8 {
		t.Errorf("only %d series named in the alert rules' expressions: the scan reads nothing", named)
	}
	promtool := needTool(t, "promtool")
	for _, args := range [][]string{{"check", "rules", filepath.Base(alertRules)}, {"test", "rules", filepath.Base(alertTests)}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = filepath.Dir(alertRules)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
}
