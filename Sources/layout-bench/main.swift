import LayoutBenchCLI

// The command line with the built-in layout kinds only; a layout author's executable is the same
// line with their kinds (Examples/CustomLayouts).
LayoutBenchCLI.main(layouts: [])
