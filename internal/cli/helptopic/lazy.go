package helptopic

import "github.com/spf13/cobra"

// Every run builds the whole command tree, and rendering the environment
// topic and the exit code table there cost every command, --version
// included, much fresh memory and a large share of the time of building the
// tree, for text shown only by help and the generated docs. A command marked
// with longAnnotation has its Long rendered by FillLong when one of those
// needs it.
const longAnnotation = "storectl/long"

// What FillLong renders for each value of longAnnotation.
const (
	longIsEnvironment = "environment" // Long is EnvironmentHelp
	longEndsExitCodes = "exit-codes"  // ExitCodesHelp is appended to Long
)

// WithExitCodes marks cmd so that FillLong appends the exit code table to
// its Long.
func WithExitCodes(cmd *cobra.Command) *cobra.Command {
	markLong(cmd, longEndsExitCodes)
	return cmd
}

func markLong(cmd *cobra.Command, what string) {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[longAnnotation] = what
}

// FillLong renders c's Long if it is marked to be rendered late (once: the
// mark is then removed). Whatever shows a command's Long calls it first:
// the help function LongAtHelp installs, and the docs generator.
func FillLong(c *cobra.Command) {
	switch c.Annotations[longAnnotation] {
	case longIsEnvironment:
		c.Long = EnvironmentHelp()
	case longEndsExitCodes:
		c.Long += ExitCodesHelp()
	default:
		return
	}
	delete(c.Annotations, longAnnotation)
}

// LongAtHelp makes help for root and every command under it (--help, -h,
// `storectl help …`) fill the command's Long before printing it.
func LongAtHelp(root *cobra.Command) {
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		FillLong(c)
		help(c, args)
	})
}
