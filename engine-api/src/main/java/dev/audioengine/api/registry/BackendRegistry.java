package dev.audioengine.api.registry;

import dev.audioengine.api.BackendType;
import dev.audioengine.api.spi.BackendProvider;
import dev.audioengine.api.spi.BackendUnavailableException;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.api.spi.DeviceKind;
import dev.audioengine.api.spi.ProbeResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The backends found at run time (ServiceLoader: the module path, then META-INF/services on the
 * class path), their probe results, and selection by type and device ordinal. Probes run once
 * per registry, lazily.
 */
public final class BackendRegistry {
    private static final System.Logger LOG = System.getLogger("dev.audioengine.registry");

    /** Registry names of the backends this project ships, mapped to their types. */
    private static final Map<String, BackendType> KNOWN_NAMES = Map.of(
            "CPU",
            BackendType.CPU,
            "CUDA",
            BackendType.CUDA,
            "ROCm",
            BackendType.HIP,
            "Vulkan",
            BackendType.VULKAN,
            "Metal",
            BackendType.METAL);

    /** Tie-break for {@code best} between devices of the same kind. */
    private static final List<BackendType> PREFERENCE =
            List.of(BackendType.CUDA, BackendType.HIP, BackendType.METAL, BackendType.VULKAN, BackendType.CPU);

    private final List<BackendProvider> providers;
    private final Map<BackendProvider, ProbeResult> probes = new LinkedHashMap<>();

    private BackendRegistry(List<BackendProvider> providers) {
        List<BackendProvider> sorted = new ArrayList<>(providers);
        sorted.sort(Comparator.comparingInt(p -> p.type().ordinal()));
        this.providers = List.copyOf(sorted);
    }

    /**
     * Providers visible to this module's class loader and the boot layer.
     *
     * @return a registry of the providers found, one per registry name (the first found wins); nothing is probed yet
     */
    public static BackendRegistry load() {
        return of(dedupe(ServiceLoader.load(BackendProvider.class)));
    }

    /**
     * Providers in a given module layer (and its parents), for applications that build layers.
     *
     * @param layer the layer to search, with its parents
     * @return a registry of the providers found, one per registry name; nothing is probed yet
     */
    public static BackendRegistry load(ModuleLayer layer) {
        return of(dedupe(ServiceLoader.load(layer, BackendProvider.class)));
    }

    /**
     * A registry of exactly these providers, without ServiceLoader: tests, and applications that construct providers
     * themselves.
     *
     * @param providers the providers, in any order (the registry orders them by type); not de-duplicated
     * @return the registry; nothing is probed yet
     */
    public static BackendRegistry of(List<BackendProvider> providers) {
        return new BackendRegistry(providers);
    }

    private static List<BackendProvider> dedupe(ServiceLoader<BackendProvider> loader) {
        Map<String, BackendProvider> byName = new LinkedHashMap<>();
        for (BackendProvider p : loader) byName.putIfAbsent(p.registryName(), p);
        return new ArrayList<>(byName.values());
    }

    /**
     * The providers, ordered by {@link BackendType} (CPU first).
     *
     * @return an unmodifiable list, including unavailable ones
     */
    public List<BackendProvider> providers() {
        return providers;
    }

    /**
     * Maps a registry name ("ROCm") to its type (HIP); unknown names are an error.
     *
     * @param registryName a {@link BackendProvider#registryName()} of a backend this project ships, case-sensitive
     * @return its type
     * @throws IllegalArgumentException if the name is not one of them; the message lists the known names
     */
    public static BackendType typeOf(String registryName) {
        BackendType t = KNOWN_NAMES.get(registryName);
        if (t == null)
            throw new IllegalArgumentException(
                    "unknown registry name '" + registryName + "'; known: " + KNOWN_NAMES.keySet());
        return t;
    }

    /**
     * A provider's probe, run the first time it is asked for and cached. A probe that throws (or a class missing
     * because the JVM lacks a module) becomes an unavailable result saying so.
     *
     * @param p one of {@link #providers()}
     * @return the result; never null, never thrown
     */
    public synchronized ProbeResult probe(BackendProvider p) {
        return probes.computeIfAbsent(p, BackendRegistry::safeProbe);
    }

    private static ProbeResult safeProbe(BackendProvider p) {
        try {
            ProbeResult r = p.probe();
            return r != null
                    ? r
                    : ProbeResult.unavailable(p.registryName() + " probe returned nothing (a backend bug)");
        } catch (RuntimeException | LinkageError e) {
            String missingModule = missingIncubatorModule(e);
            if (missingModule != null) {
                return ProbeResult.unavailable(p.registryName() + " needs the module " + missingModule
                        + ", which this JVM was started without: " + "add --add-modules " + missingModule
                        + " to the java command (needed on the class path; the module path adds it by itself)");
            }
            return ProbeResult.unavailable(p.registryName() + " probe failed: " + e);
        }
    }

    /**
     * The incubator module a class of which could not be found (NoClassDefFoundError
     * "jdk/incubator/vector/FloatVector"), or null. Incubator modules are not resolved by default on
     * the class path, so this is a launch-command mistake, not a broken backend.
     */
    private static String missingIncubatorModule(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof NoClassDefFoundError
                    && t.getMessage() != null
                    && t.getMessage().startsWith("jdk/incubator/")) {
                String[] parts = t.getMessage().split("/");
                if (parts.length > 3) return parts[0] + "." + parts[1] + "." + parts[2];
            }
        }
        return null;
    }

    /**
     * A chosen backend and device.
     *
     * @param provider the provider to open
     * @param device the device to open, as its probe described it
     * @param why how it was chosen, for logs and {@code AudioEngine.selectionNote()}: "requested cuda", "best: picked
     *     ..."
     */
    public record Selection(BackendProvider provider, DeviceInfo device, String why) {}

    /**
     * Picks a backend and device. {@code BEST_AVAILABLE} takes discrete GPU over integrated GPU
     * over CPU and logs its choice (device must then be 0 or -1). Fails with the whole picture:
     * every backend, its devices, and why the unavailable ones are unavailable.
     *
     * @param type the backend wanted, or {@code BEST_AVAILABLE}
     * @param device the device's index among that backend's devices; negative means 0
     * @return the choice; nothing is opened yet
     * @throws BackendUnavailableException if the backend is not installed or not available, the device does not
     *     exist, {@code best} is combined with a device above 0, or no backend is available; the message includes
     *     {@link #describe()}
     */
    public Selection select(BackendType type, int device) {
        if (type == BackendType.BEST_AVAILABLE) return best(device);
        BackendProvider match = null;
        for (BackendProvider p : providers)
            if (p.type() == type) {
                match = p;
                break;
            }
        if (match == null) {
            throw new BackendUnavailableException(
                    "backend '" + type.cliName() + "' is not installed: no "
                            + type.cliName() + " backend jar on the module path or class path.\n" + describe()
                            + "Add the audioengine-backend-" + type.cliName()
                            + " jar to the module path or class path (the launcher's is app-cli/target/dist/lib; see README, 'Adding or removing a backend').");
        }
        ProbeResult r = probe(match);
        if (!r.available()) {
            throw new BackendUnavailableException("backend '" + type.cliName() + "' (" + match.registryName()
                    + ") is unavailable: " + r.reason() + "\n" + describe());
        }
        int d = Math.max(0, device);
        if (d >= r.devices().size()) {
            throw new BackendUnavailableException("backend '" + type.cliName() + "' has "
                    + r.devices().size() + " device(s); --device " + device + " does not exist.\n" + describe());
        }
        return new Selection(match, r.devices().get(d), "requested " + type.cliName());
    }

    private Selection best(int device) {
        if (device > 0) {
            throw new BackendUnavailableException(
                    "--device " + device + " cannot be combined with --backend best; name the backend too");
        }
        Selection chosen = null;
        for (BackendProvider p : providers) {
            ProbeResult r = probe(p);
            if (!r.available() || r.devices().isEmpty()) continue;
            DeviceInfo d = r.devices().getFirst();
            for (DeviceInfo cand : r.devices())
                if (cand.kind().preference() > d.kind().preference()) d = cand;
            if (chosen == null || better(p, d, chosen)) chosen = new Selection(p, d, "");
        }
        if (chosen == null) throw new BackendUnavailableException("no backend is available.\n" + describe());
        Selection s = new Selection(
                chosen.provider(),
                chosen.device(),
                "best: picked " + chosen.provider().registryName() + " device "
                        + chosen.device().index() + " (" + chosen.device().name() + ", "
                        + chosen.device().kind() + ")");
        LOG.log(System.Logger.Level.INFO, s.why());
        return s;
    }

    private static boolean better(BackendProvider p, DeviceInfo d, Selection cur) {
        int byKind = Integer.compare(d.kind().preference(), cur.device().kind().preference());
        if (byKind != 0) return byKind > 0;
        if (d.kind() == DeviceKind.CPU) {
            // A GPU API on a software device (Mesa's lavapipe) is a correctness tool, far slower
            // than the native CPU backend: on CPU devices the CPU backend wins.
            if (p.type() == BackendType.CPU) return true;
            if (cur.provider().type() == BackendType.CPU) return false;
        }
        return PREFERENCE.indexOf(p.type()) < PREFERENCE.indexOf(cur.provider().type());
    }

    /**
     * One line per backend with its devices or its reason: the body of every selection error.
     *
     * @return a multi-line text starting "Backends:", ending in a newline; probes every provider not yet probed
     */
    public String describe() {
        StringBuilder sb = new StringBuilder("Backends:\n");
        if (providers.isEmpty()) sb.append("  (none found: is lib/ on the module path?)\n");
        for (BackendProvider p : providers) {
            ProbeResult r = probe(p);
            sb.append("  ")
                    .append(p.type().cliName())
                    .append(" (")
                    .append(p.registryName())
                    .append("): ");
            if (r.available()) {
                sb.append("available, ").append(r.devices().size()).append(" device(s)");
                for (DeviceInfo d : r.devices())
                    sb.append("\n    [")
                            .append(d.index())
                            .append("] ")
                            .append(d.name())
                            .append(" (")
                            .append(d.arch())
                            .append(")");
            } else {
                sb.append("unavailable: ").append(r.reason());
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
