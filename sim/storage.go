// storage.go holds the protected resource: the data the lock is meant to
// guard, kept on its own Redis node and written through the fencing check.

package sim

import "locklab/sim/rediscli"

// DataKey and TokenKey are the record and the last accepted token on the
// storage node (exported so the Lab's Go code names the same keys).
func (sc *Scenario) DataKey() string  { return "data:" + sc.Resource }
func (sc *Scenario) TokenKey() string { return "data:" + sc.Resource + ":token" }

// writeValue is what a client writes: plain ASCII, so redis-cli's quoting
// shows it unchanged.
func writeValue(c *Client) string { return "written by " + c.Name() }

// ChargesKey is the order's payment ledger; ProcessedKey its idempotency key.
func (sc *Scenario) ChargesKey() string   { return "charges:" + sc.Resource }
func (sc *Scenario) ProcessedKey() string { return "processed:" + sc.Resource }

// storageWrite sends c's write to the storage and says whether the storage
// took it, and whether the reply was lost on the way back.
func (w *World) storageWrite(c *Client) (accepted, lost bool, err error) {
	if w.sc.Storage == StoreCharges {
		return w.charge(c)
	}
	return w.fencedWrite(c)
}

// fencedWrite: with fencing on the write goes through FencedWriteScript
// (FencedWriteStrictScript with fence.strict), whose check and update are
// atomic on the server; with fencing off it is a plain SET that always
// succeeds.
func (w *World) fencedWrite(c *Client) (accepted, lost bool, err error) {
	sc := w.sc
	fenced := w.opts[OptFence] != FenceOff
	if fenced {
		script := FencedWriteScript
		if w.opts[OptFence] == FenceStrict {
			script = FencedWriteStrictScript // a token must be greater: a retry is refused
		}
		_, err = w.send(c, w.store, "write",
			"EVAL", script, 2, sc.DataKey(), sc.TokenKey(), c.token, writeValue(c))
	} else {
		_, err = w.send(c, w.store, "write", "SET", sc.DataKey(), writeValue(c))
	}
	ev := &w.events[len(w.events)-1]
	if fenced {
		ev.Token = c.token // a plain SET carries no token
	}
	// What the server answered, whether or not the client got it. An
	// error reply (a token key someone set by hand to something the
	// script cannot compare) is a write not taken, shown as it came.
	accepted = ev.Reply.IsOK() || ev.Reply.IsInt(1)
	ev.Accepted = &accepted
	if noReply(err) {
		return accepted, true, nil
	}
	if isErrorReply(err) {
		err = nil
	}
	return accepted, false, err
}

// twoStepWrite is the fencing check done in two commands (fence.twostep):
// GET the last accepted token; if c's is not lower, MSET the data and
// the token. The program stops between the two (`next` sends the MSET),
// so another writer can read the same old token in the gap, and the
// write that lands last wins whatever its token. A write refused at the
// GET sends nothing more; the GET's event carries the verdict.
func (w *World) twoStepWrite(c *Client, yield bool) error {
	sc := w.sc
	seen, err := w.send(c, w.store, "lasttoken", "GET", sc.TokenKey())
	if failed(err) {
		return nil // no answer: the writer cannot tell, and does not write
	}
	if err != nil {
		return err
	}
	last := int64(0)
	if s, ok := seen.(string); ok {
		last, _ = parseInt(s)
	}
	if c.token < last {
		ev := &w.events[len(w.events)-1]
		refused := false
		ev.Token, ev.Accepted = c.token, &refused
		return nil
	}
	return w.yieldOr(c, yield, StateHolding, "MSET", func(w *World, c *Client) error {
		_, err := w.send(c, w.store, "write", "MSET", sc.DataKey(), writeValue(c), sc.TokenKey(), c.token)
		ev := &w.events[len(w.events)-1]
		accepted := ev.Reply.IsOK()
		ev.Token, ev.Accepted = c.token, &accepted
		if err != nil && !failed(err) {
			return err
		}
		if accepted {
			w.checkWrite(c)
		}
		return nil
	})
}

// charge adds a charge to the order's ledger: a plain RPUSH, or through the
// idempotency key (ChargeOnceScript) when idem is on.
func (w *World) charge(c *Client) (accepted, lost bool, err error) {
	sc := w.sc
	if w.opts[OptIdem] == IdemKey {
		_, err = w.send(c, w.store, "write",
			"EVAL", ChargeOnceScript, 2, sc.ProcessedKey(), sc.ChargesKey(), c.Name())
	} else {
		_, err = w.send(c, w.store, "write", "RPUSH", sc.ChargesKey(), c.Name())
	}
	ev := &w.events[len(w.events)-1]
	accepted = !ev.Reply.IsInt(0) && ev.Reply.Kind != rediscli.ReplyError
	ev.Accepted = &accepted
	if accepted {
		w.checkCharges()
	}
	if noReply(err) {
		return accepted, true, nil
	}
	if isErrorReply(err) { // a ledger key typed by hand into another type
		err = nil
	}
	return accepted, false, err
}

// storageView reads the resource off its node.
func (w *World) storageView() StorageView {
	// a ledger's charges carry no token: only a record's writes are fenced
	sv := StorageView{Kind: w.sc.Storage, Fenced: w.sc.Storage == StoreFenced && w.opts[OptFence] != FenceOff}
	if w.sc.Scripted != nil {
		sv.Fenced = w.sc.Scripted.readsToken // a write script that never reads the token checks none
	}
	if w.sc.Storage == StoreCharges {
		all := w.store.list(w.sc.ChargesKey())
		sv.ChargesLen = len(all)
		for _, c := range all[:min(len(all), ChargesShown)] {
			sv.Charges = append(sv.Charges, Shown(c))
		}
		return sv
	}
	v, _ := w.store.peek(w.sc.DataKey())
	t, ok := w.store.peek(w.sc.TokenKey())
	sv.LastToken, _ = parseInt(t)
	sv.Value, sv.HasToken, sv.TokenText = Shown(v), ok, Shown(t)
	return sv
}
