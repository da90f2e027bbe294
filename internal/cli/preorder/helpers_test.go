package preorder

import "github.com/storectl/storectl/internal/cli/cmdutil"

func pages(n int) cmdutil.PageFlags { return cmdutil.PageFlags{Page: n} }
