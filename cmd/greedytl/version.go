package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/greedytl/greedytl/internal/buildinfo"
)

func newVersionCmd(s *streams) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "version",
		Short: "Print greedytl's version: module version, commit and Go version",
		Long: `Version prints the build's module version, the commit it was built from (and
whether the tree was modified) and the Go version, as model files and run.json
record them. 'greedytl --version' prints the same line.`,
		RunE: func(*cobra.Command, []string) error {
			info := buildinfo.Read()
			if asJSON {
				enc := json.NewEncoder(s.out)
				enc.SetIndent("", "  ")
				return enc.Encode(info)
			}
			_, err := fmt.Fprintln(s.out, info)
			return err
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the build information as JSON")
	return c
}
