package mcp

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Draining makes a stream transport answer what it was asked before it
// ends: when the client closes its side (`… | storectl mcp`, a script
// that writes its requests and closes stdin), the end of input is held
// back until every request read has been answered, where the protocol
// would otherwise cancel them unanswered.
func Draining(t sdk.Transport) sdk.Transport { return drainingTransport{t} }

type drainingTransport struct{ sdk.Transport }

func (t drainingTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	d := &drainingConn{Connection: conn}
	d.idle = sync.NewCond(&d.mu)
	return d, nil
}

type drainingConn struct {
	sdk.Connection
	mu      sync.Mutex
	idle    *sync.Cond
	pending int
}

func (d *drainingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := d.Connection.Read(ctx)
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		for d.pending > 0 {
			d.idle.Wait()
		}
		return nil, err
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		d.pending++
	}
	return msg, nil
}

func (d *drainingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := d.Connection.Write(ctx, msg)
	if _, ok := msg.(*jsonrpc.Response); ok {
		d.mu.Lock()
		d.pending--
		d.idle.Broadcast()
		d.mu.Unlock()
	}
	return err
}

// Close also lets a Read waiting for answers end: none will be written.
func (d *drainingConn) Close() error {
	d.mu.Lock()
	d.pending = 0
	d.idle.Broadcast()
	d.mu.Unlock()
	return d.Connection.Close()
}
