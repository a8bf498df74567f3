package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
)

// measureStdio starts the server bin serving stdio, initializes, keeps c
// calls in flight over the pipe for d (after a warm-up of 20 calls per
// slot), and stops it. A call's latency is from writing its line to
// reading its answer.
func measureStdio(bin string, c int, d time.Duration) (result, error) {
	p, err := startStdio(bin, false)
	if err != nil {
		return result{}, err
	}
	defer p.stop()
	// Bound everything: a server that stops answering is killed, which
	// ends the reader and so every wait below.
	watchdog := time.AfterFunc(d+time.Minute, func() { _ = p.cmd.Process.Kill() })
	defer watchdog.Stop()
	if err := p.initialize(); err != nil {
		return result{}, err
	}
	p.startReader(c)
	if _, err := p.load(func(sent int) bool { return sent < 20*c }); err != nil {
		return result{}, fmt.Errorf("warm-up: %w", err)
	}
	pid := p.cmd.Process.Pid
	cpu0, err := cpuTime(pid)
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	end := start.Add(d)
	lat, err := p.load(func(int) bool { return time.Now().Before(end) })
	elapsed := time.Since(start)
	if err != nil {
		return result{}, err
	}
	cpu1, err := cpuTime(pid)
	if err != nil {
		return result{}, err
	}
	return summarize(lat, elapsed, cpu1-cpu0)
}

// stdioPeer is the client's end of a stdio server process.
type stdioPeer struct {
	cmd    *exec.Cmd
	in     io.WriteCloser // the server's stdin
	out    *bufio.Reader  // the server's stdout
	stderr *bufio.Reader  // the server's stderr, if startStdio was asked for the heap

	// Set by startReader.
	slots chan struct{} // a token per call in flight, at most c
	dead  chan struct{} // closed when the reader stops
	err   error         // why the reader stopped, once dead is closed
	mu    sync.Mutex
	sent  map[int64]time.Time // calls in flight, by id
	lat   []time.Duration     // answered calls' latencies
	next  int64               // the next call's id
}

// startStdio prepares bin -wire stdio, to be started by initialize (or
// start). With heap, the server gets standalone.HeapEnv and its stderr is
// read by heap; without, its stderr is the series'.
func startStdio(bin string, heap bool) (*stdioPeer, error) {
	cmd := exec.Command(bin, "-wire", "stdio")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &stdioPeer{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), next: 1}
	if heap {
		cmd.Env = append(os.Environ(), standalone.HeapEnv+"=1")
		stderr, err := cmd.StderrPipe()
		if err != nil {
			return nil, err
		}
		p.stderr = bufio.NewReader(stderr)
	} else {
		cmd.Stderr = os.Stderr
	}
	return p, nil
}

// start starts the process.
func (p *stdioPeer) start() error { return p.cmd.Start() }

// stop closes the server's input and ends the process.
func (p *stdioPeer) stop() {
	if p.cmd.Process != nil && os.Getenv(standalone.ProfileEnv) != "" {
		end(p.cmd) // before its input ends, which would end it first
	}
	_ = p.in.Close()
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	}
}

// initialize starts the process if needed, and sends initialize, reads its
// answer and sends notifications/initialized.
func (p *stdioPeer) initialize() error {
	if p.cmd.Process == nil {
		if err := p.start(); err != nil {
			return err
		}
	}
	if _, err := p.roundTrip(initialize, `"protocolVersion"`); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	return p.writeLine([]byte(initialized))
}

// roundTrip writes line and reads the next line of output, which must
// contain wantIn.
func (p *stdioPeer) roundTrip(line, wantIn string) ([]byte, error) {
	if err := p.writeLine([]byte(line)); err != nil {
		return nil, err
	}
	answer, err := p.out.ReadBytes('\n')
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	if !bytes.Contains(answer, []byte(wantIn)) {
		return nil, fmt.Errorf("answer without %s: %s", wantIn, answer)
	}
	return answer, nil
}

func (p *stdioPeer) writeLine(line []byte) error {
	_, err := p.in.Write(append(line, '\n'))
	return err
}

// startReader starts reading the answers of calls, at most c in flight.
func (p *stdioPeer) startReader(c int) {
	p.slots = make(chan struct{}, c)
	p.dead = make(chan struct{})
	p.sent = map[int64]time.Time{}
	go func() {
		defer close(p.dead)
		for {
			line, err := p.out.ReadBytes('\n')
			if err != nil {
				p.err = fmt.Errorf("reading answers: %w", err)
				return
			}
			var m struct {
				ID *int64 `json:"id"`
			}
			if err := json.Unmarshal(line, &m); err != nil || m.ID == nil {
				p.err = fmt.Errorf("not an answer: %s", line)
				return
			}
			if !bytes.Contains(line, []byte(want)) {
				p.err = fmt.Errorf("answer without %s: %s", want, line)
				return
			}
			now := time.Now()
			p.mu.Lock()
			t, ok := p.sent[*m.ID]
			delete(p.sent, *m.ID)
			if ok {
				p.lat = append(p.lat, now.Sub(t))
			}
			p.mu.Unlock()
			if !ok {
				p.err = fmt.Errorf("answer to no call in flight: %s", line)
				return
			}
			<-p.slots
		}
	}()
}

// load sends calls, each once a slot is free, while more(calls sent so
// far) holds, then waits for every answer and returns their latencies.
func (p *stdioPeer) load(more func(sent int) bool) ([]time.Duration, error) {
	p.mu.Lock()
	p.lat = p.lat[:0]
	p.mu.Unlock()
	var buf []byte
	for sent := 0; more(sent); sent++ {
		select {
		case p.slots <- struct{}{}:
		case <-p.dead:
			return nil, p.err
		}
		p.mu.Lock()
		id := p.next
		p.next++
		p.sent[id] = time.Now()
		p.mu.Unlock()
		buf = append(sessionCall(buf[:0], id), '\n')
		if _, err := p.in.Write(buf); err != nil {
			return nil, err
		}
	}
	// Every slot free is every call answered.
	for range cap(p.slots) {
		select {
		case p.slots <- struct{}{}:
		case <-p.dead:
			return nil, p.err
		}
	}
	for range cap(p.slots) {
		<-p.slots
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.sent) != 0 {
		return nil, errors.New("calls left unanswered")
	}
	return append([]time.Duration(nil), p.lat...), nil
}
