import CustomLayoutKinds
import LayoutBenchCLI

// The registration: the two layouts of this package (CustomLayoutKinds: the scenario keys each
// reads, under every generic workload they support). `custom-layout-bench` then has layout-bench's
// command line (run, list, dump, render, compare, compare-builds, export) with these kinds beside
// the built-in ones.
LayoutBenchCLI.main(layouts: CustomLayoutKinds.all)
