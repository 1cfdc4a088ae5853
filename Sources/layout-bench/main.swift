import LayoutBenchKit
print("layout-bench")
