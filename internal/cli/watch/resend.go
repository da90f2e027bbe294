package watch

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/watch"
)

// ResendOptions are the inputs of `storectl watch events resend`.
type ResendOptions struct {
	cmdutil.MirrorDeps
	IDs    []string
	Failed bool
}

func newResend(f *cmdutil.Factory, runF func(*ResendOptions) error) *cobra.Command {
	opts := &ResendOptions{MirrorDeps: f.MirrorDeps()}
	cmd := &cobra.Command{
		Use:   "resend ID... | --failed",
		Short: "Send events of the outbox again",
		Long: `Make events of the outbox pending again, with their retries reset: the
running storectl watch of the profile (or the next one started) delivers them,
in their place in the order. --failed takes every parked event; IDs name
any, delivered ones too (a receiver that lost them). Works while a watch runs.`,
		Example: `  storectl watch events resend --failed
  storectl watch events resend evt_5f0c2b7e9a8d4c1b3e6f7a9d2c4b8e1f`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.IDs = args
			return cmdutil.Run(cmd.Context(), opts, runF, runResend)
		},
	}
	cmd.Flags().BoolVar(&opts.Failed, "failed", false, "every parked event")
	return cmd
}

func runResend(ctx context.Context, opts *ResendOptions) error {
	if opts.Failed == (len(opts.IDs) > 0) {
		return exitcode.UsageHint(fmt.Errorf("name the events to send again, or give --failed for every parked one (not both)"),
			"`storectl watch events --failed` lists the parked events with their ids")
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	db, err := opts.Mirror(ctx, mirror.Outbox)
	if err != nil {
		return mirrorutil.ReaderRefused(ctx, opts.MirrorDeps, mirrorutil.MirrorError(err))
	}
	defer db.Close()
	n := len(opts.IDs)
	if opts.Failed {
		n, err = watch.ResendParked(ctx, db)
	} else {
		var missing []string
		missing, err = watch.ResendEvents(ctx, db, opts.IDs)
		if err == nil && len(missing) > 0 {
			return exitcode.UsageHint(fmt.Errorf("the outbox of profile %q holds no event %s; nothing was changed", s.Profile, strings.Join(missing, ", ")),
				"`storectl watch events --last 0` lists every event it keeps (delivered ones for 7 days)")
		}
	}
	if err != nil {
		return mirrorutil.ReaderRefused(ctx, opts.MirrorDeps, mirrorutil.MirrorError(err))
	}
	if !s.Quiet {
		them := "them"
		if n == 1 {
			them = "it"
		}
		fmt.Fprintf(opts.IO.ErrOut, "✓ %s pending again: the running storectl watch of profile %q (or the next one) delivers %s\n",
			output.Plural(n, "event"), s.Profile, them)
	}
	return nil
}
