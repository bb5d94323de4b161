#if canImport(Glibc)
import Glibc
#endif
import CColumnMemory
import RelativeViewEngine
import Testing

/// How many CPUs the process may keep busy, which decides whether an import scans on a
/// second thread, a builder warms its pages ahead, and a snapshot load checks on the side.
@Suite struct UsableProcessorsTests {
    @Test(arguments: [
        // the active CPUs of the affinity mask (or those online), cgroup v2's cpu.max (nil:
        // none), usable
        (2, nil, 2),
        (2, "max 100000\n", 2),
        (1, nil, 1),  // taskset -c 0
        (8, "150000 100000\n", 2),  // docker --cpus 1.5: two may run, throttled
        (8, "100000 100000\n", 1),  // docker --cpus 1
        (8, "50000 100000\n", 1),
        (4, "800000 100000\n", 4),  // the smaller of the mask and the quota
        (3, "max 100000\n", 3),
        (0, nil, 1),  // nothing known: one
        (2, "garbage", 2),
        (2, "0 100000", 2),
    ] as [(Int, String?, Int32)])
    func theSmallerOfTheMaskAndTheQuota(cpus: Int, cpuMax: String?, usable: Int32) {
        let got = cpuMax.map { text in text.withCString { rv_usable_processors_of(cpus, $0) } } ?? rv_usable_processors_of(cpus, nil)
        #expect(got == usable, "\(cpus) CPUs, cpu.max \(cpuMax ?? "none")")
    }

    @Test func thisProcessMayUseAtLeastOneAndAtMostTheOnlineCPUs() {
        let usable = Int(rv_usable_processors())
        #expect(usable >= 1 && usable <= max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        // A side task has a thread of its own exactly where a second CPU may run it.
        let task = _SideTask { 1 }
        #expect(task.hasThread == (usable > 1))
        #expect(task.wait() == 1)
    }
}
