import dev.audioengine.conformance.GuardedExecution;
import dev.audioengine.api.graph.*;
import dev.audioengine.api.spi.*;
import dev.audioengine.api.tensor.*;
import java.util.*;

/** In-process A/B of a mat-vec with its weight as a constant and as a graph input; see docs/PERFORMANCE-cpu.md. */
public class MatVecInputVsConstant {
    public static void main(String[] a) throws Exception {
        int threads = Integer.parseInt(a[0]);
        String[] dtypes = a[1].split(",");
        String[] ms = a[2].split(",");
        int n = a.length > 3 ? Integer.parseInt(a[3]) : 2048, k = a.length > 4 ? Integer.parseInt(a[4]) : 2048;
        double warm = a.length > 5 ? Double.parseDouble(a[5]) : 1.0;
        BackendProvider p = ServiceLoader.load(BackendProvider.class).stream().map(ServiceLoader.Provider::get).filter(q -> q.registryName().equals("CPU")).findFirst().orElseThrow();
        try (Backend b = p.open(0, new BackendConfig(threads, Map.of()))) {
            Random r = new Random(1);
            for (String dt : dtypes) for (String mS : ms) {
                DType d = DType.valueOf(dt);
                int m = Integer.parseInt(mS);
                float[] wv = new float[n * k]; for (int i = 0; i < wv.length; i++) wv[i] = (float) r.nextGaussian();
                float[] xv = new float[m * k]; for (int i = 0; i < xv.length; i++) xv[i] = (float) r.nextGaussian();
                try (HostTensor w = HostTensor.convert(d, Shape.of(n, k), wv); HostTensor x = HostTensor.ofFloats(Shape.of(m, k), xv)) {
                    double[] res = new double[2];
                    GuardedExecution[] ex = new GuardedExecution[2];
                    for (int c = 0; c < 2; c++) {
                        GraphBuilder g = new GraphBuilder();
                        Tensor wt = c == 0 ? g.constant(w) : g.input("w", d, w.shape());
                        Tensor y = g.matmul(g.input("x", Shape.of(m, k)), wt);
                        ex[c] = new GuardedExecution(b, g.build(y));
                        ex[c].run(c == 0 ? Map.of("x", x) : Map.of("x", x, "w", w));
                    }
                    for (int c = 0; c < 2; c++) { long t0 = System.nanoTime(); while (System.nanoTime() - t0 < warm * 1e9) ex[c].rerun(); }
                    int runs = 31; long[][] t = new long[2][runs], cpu = new long[2][runs];
                    var mx = java.lang.management.ManagementFactory.getThreadMXBean();
                    for (int i = 0; i < runs; i++) for (int c = 0; c < 2; c++) { long s = System.nanoTime(), cs = mx.getCurrentThreadCpuTime(); ex[c].rerun(); cpu[c][i] = mx.getCurrentThreadCpuTime() - cs; t[c][i] = System.nanoTime() - s; }
                    double[] cres = new double[2];
                    for (int c = 0; c < 2; c++) { Arrays.sort(t[c]); Arrays.sort(cpu[c]); res[c] = 2.0 * m * n * k / t[c][0]; cres[c] = 2.0 * m * n * k / cpu[c][runs / 2]; ex[c].close(); }
                    System.out.printf(Locale.ROOT, "%-5s M=%d threads %d  min-wall const %7.2f input %7.2f ratio %.2f | median-cpu const %7.2f input %7.2f ratio %.2f GFLOP/s%n", dt, m, threads, res[0], res[1], res[1] / res[0], cres[0], cres[1], cres[1] / cres[0]);
                }
            }
        }
    }
}
