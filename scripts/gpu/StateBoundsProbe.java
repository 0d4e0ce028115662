import dev.audioengine.api.BackendType;
import dev.audioengine.api.graph.Graph;
import dev.audioengine.api.graph.GraphBuilder;
import dev.audioengine.api.graph.Tensor;
import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.api.spi.Backend;
import dev.audioengine.api.spi.BackendConfig;
import dev.audioengine.api.tensor.DType;
import dev.audioengine.api.tensor.HostTensor;
import dev.audioengine.api.tensor.Shape;
import dev.audioengine.conformance.GuardedExecution;

import java.util.Map;

/**
 * What an in-place write past a persistent tensor's capacity does on each backend (docs/STATE.md,
 * "Bounds"): the CPU fails the run with IndexOutOfBoundsException; GPU backends drop the elements
 * that would land outside and touch no byte beyond the tensor. Writes 3 rows into a [1, 6, 4]
 * state at starts past either end, through the SPI with guard regions around every tensor.
 * <pre>
 * java -p app-cli/target/dist/lib --add-modules ALL-MODULE-PATH scripts/gpu/StateBoundsProbe.java [cpu] [cuda] [cuda:graphs=off] [vulkan]
 * </pre>
 * Prints one line per backend and start; exits 1 when any backend does not do what the page says.
 */
public final class StateBoundsProbe {
    private static final int CAP = 6, LEN = 3, ROW = 4;
    private static final int[] STARTS = {3, 4, 5, 6, 100, -1, -2, -3, -100};

    public static void main(String[] args) {
        String[] targets = args.length > 0 ? args : new String[] {"cpu", "cuda", "cuda:graphs=off", "vulkan"};
        int failures = 0;
        for (String target : targets) failures += probe(target);
        System.out.println(failures == 0 ? "all backends behave as documented" : failures + " deviation(s)");
        System.exit(failures == 0 ? 0 : 1);
    }

    private static int probe(String target) {
        String name = target.split(":")[0];
        BackendType type = BackendType.parse(name);
        Map<String, String> options = target.endsWith(":graphs=off") ? Map.of(name + ".graphs", "off") : Map.of();
        GraphBuilder g = new GraphBuilder();
        Tensor s = g.state("cache", Shape.of(1, CAP, ROW));
        Tensor w = g.writeSlice(s, g.input("src", Shape.of(1, LEN, ROW)), 1, g.input("start", DType.I32, Shape.of(1)));
        Graph graph = g.build(w);
        float[] initial = new float[CAP * ROW], src = new float[LEN * ROW];
        for (int i = 0; i < initial.length; i++) initial[i] = 100 + i;
        for (int i = 0; i < src.length; i++) src[i] = -1 - i;
        int failures = 0;
        try (Backend backend = BackendRegistry.load().select(type, 0).provider().open(0, new BackendConfig(0, options));
             GuardedExecution run = new GuardedExecution(backend, graph);
             HostTensor init = HostTensor.ofFloats(Shape.of(1, CAP, ROW), initial);
             HostTensor x = HostTensor.ofFloats(Shape.of(1, LEN, ROW), src)) {
            String who = backend.registryName() + " (" + backend.device().name() + ")" + (options.isEmpty() ? "" : " " + options);
            for (int start : STARTS) {
                run.setState("cache", init);
                boolean inside = start >= 0 && start + LEN <= CAP;
                String outcome;
                boolean ok;
                try (HostTensor at = HostTensor.ofInts(Shape.of(1), start)) {
                    run.run(Map.of("src", x, "start", at));
                    var guards = run.memoryViolations();
                    double[] got = run.values(w);
                    int wrong = 0;
                    for (int pos = 0; pos < CAP; pos++) {
                        int from = pos - start;
                        for (int c = 0; c < ROW; c++) {
                            double expect = from >= 0 && from < LEN ? src[from * ROW + c] : initial[pos * ROW + c];
                            if (got[pos * ROW + c] != expect) wrong++;
                        }
                    }
                    outcome = (inside ? "written" : "in-range rows written, the rest dropped") + ": " + wrong + " wrong element(s), "
                            + (guards.isEmpty() ? "guards intact" : guards);
                    ok = wrong == 0 && guards.isEmpty() && (inside || type != BackendType.CPU);
                } catch (IndexOutOfBoundsException e) {
                    outcome = "IndexOutOfBoundsException: " + e.getMessage();
                    ok = !inside && type == BackendType.CPU;
                }
                System.out.printf("%-5s %s start %4d (capacity %d, length %d): %s%n", ok ? "OK" : "FAIL", who, start, CAP, LEN, outcome);
                if (!ok) failures++;
            }
        } catch (RuntimeException e) {
            System.out.println("FAIL  " + target + ": " + e);
            failures++;
        }
        return failures;
    }
}
