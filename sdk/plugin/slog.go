package plugin

// The host's side of the plugins' logs: go-plugin logs through an hclog.Logger, and relays each
// line a plugin process writes to stderr through it too (a plugin's JSON records with their
// level and fields; any other line, a panic's trace included, as a message of its own). slogLogger
// turns all of that into records of the host's log/slog handler, so that `cardhouse serve` writes
// one JSON line per record, the plugins' among its own, instead of hclog's text lines.

import (
	"context"
	"io"
	"log"
	"log/slog"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// SlogLogger returns an hclog.Logger writing to l: each record at least as severe as floor (and
// enabled by l's handler) becomes one record of l, with the logger's name as the "logger"
// attribute and hclog's key-value pairs as attributes. Give it as Config.Logger; the default
// Config writes to slog.Default() with floor hclog.Warn.
func SlogLogger(l *slog.Logger, floor hclog.Level) hclog.Logger {
	return &slogLogger{l: l, floor: floor}
}

type slogLogger struct {
	l       *slog.Logger
	name    string
	floor   hclog.Level
	implied []any
}

var _ hclog.Logger = (*slogLogger)(nil)

// slogLevel is the slog level of an hclog level (trace is below debug).
func slogLevel(level hclog.Level) slog.Level {
	switch level {
	case hclog.Trace:
		return slog.LevelDebug - 4
	case hclog.Debug:
		return slog.LevelDebug
	case hclog.Warn:
		return slog.LevelWarn
	case hclog.Error:
		return slog.LevelError
	}
	return slog.LevelInfo
}

func (s *slogLogger) enabled(level hclog.Level) bool {
	return level >= s.floor && s.l.Enabled(context.Background(), slogLevel(level))
}

func (s *slogLogger) Log(level hclog.Level, msg string, args ...any) {
	if level == hclog.NoLevel || level == hclog.Off || !s.enabled(level) {
		return
	}
	attrs := make([]any, 0, len(s.implied)+len(args)+2)
	if s.name != "" {
		attrs = append(attrs, "logger", s.name)
	}
	attrs = append(attrs, s.implied...)
	attrs = append(attrs, args...)
	s.l.Log(context.Background(), slogLevel(level), strings.TrimRight(msg, "\n"), attrs...)
}

func (s *slogLogger) Trace(msg string, args ...any) { s.Log(hclog.Trace, msg, args...) }
func (s *slogLogger) Debug(msg string, args ...any) { s.Log(hclog.Debug, msg, args...) }
func (s *slogLogger) Info(msg string, args ...any)  { s.Log(hclog.Info, msg, args...) }
func (s *slogLogger) Warn(msg string, args ...any)  { s.Log(hclog.Warn, msg, args...) }
func (s *slogLogger) Error(msg string, args ...any) { s.Log(hclog.Error, msg, args...) }

func (s *slogLogger) IsTrace() bool { return s.enabled(hclog.Trace) }
func (s *slogLogger) IsDebug() bool { return s.enabled(hclog.Debug) }
func (s *slogLogger) IsInfo() bool  { return s.enabled(hclog.Info) }
func (s *slogLogger) IsWarn() bool  { return s.enabled(hclog.Warn) }
func (s *slogLogger) IsError() bool { return s.enabled(hclog.Error) }

func (s *slogLogger) ImpliedArgs() []any { return s.implied }

func (s *slogLogger) With(args ...any) hclog.Logger {
	c := *s
	c.implied = append(append([]any{}, s.implied...), args...)
	return &c
}

func (s *slogLogger) Name() string { return s.name }

func (s *slogLogger) Named(name string) hclog.Logger {
	c := *s
	if c.name != "" {
		name = c.name + "." + name
	}
	c.name = name
	return &c
}

func (s *slogLogger) ResetNamed(name string) hclog.Logger {
	c := *s
	c.name = name
	return &c
}

// SetLevel moves the floor: records below level are dropped.
func (s *slogLogger) SetLevel(level hclog.Level) { s.floor = level }

// GetLevel is the lowest level written (go-plugin skips a plugin's records below it).
func (s *slogLogger) GetLevel() hclog.Level {
	for _, l := range []hclog.Level{hclog.Trace, hclog.Debug, hclog.Info, hclog.Warn, hclog.Error} {
		if s.enabled(l) {
			return l
		}
	}
	return hclog.Off
}

func (s *slogLogger) StandardLogger(opts *hclog.StandardLoggerOptions) *log.Logger {
	return log.New(s.StandardWriter(opts), "", 0)
}

// StandardWriter writes each line as a record, at opts.ForceLevel or Info.
func (s *slogLogger) StandardWriter(opts *hclog.StandardLoggerOptions) io.Writer {
	level := hclog.Info
	if opts != nil && opts.ForceLevel != hclog.NoLevel {
		level = opts.ForceLevel
	}
	return lineWriter{s: s, level: level}
}

type lineWriter struct {
	s     *slogLogger
	level hclog.Level
}

func (w lineWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		w.s.Log(w.level, line)
	}
	return len(p), nil
}
