package dev.audioengine.tools.release;

import dev.audioengine.weights.json.JsonFormatException;
import dev.audioengine.weights.json.StrictJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Fails a build whose CycloneDX SBOM (JSON) lists a component whose licence is not on an allow-list: CycloneDX's Maven
 * plugin records licences but enforces nothing. A component passes when one of its licences (SPDX id, or a POM licence
 * name known to mean one) is allowed; an SPDX expression passes when one side of each OR, and both sides of each AND,
 * are allowed; a component with no licence at all fails.
 * <p>
 * A single source file read with the engine's one JSON reader ({@link StrictJson}), so the release profile (once, in
 * app-cli, on the distribution's SBOM) and scripts/release (on every published module's) run it as a source file
 * with the distribution's weights and jackson-core jars on the class path: {@code java --class-path
 * dist/lib/audioengine-weights.jar:dist/lib/jackson-core.jar SbomLicenseCheck.java --allow=Apache-2.0,MIT,...
 * [--list] BOM.json...}; exit 0 when every component passes, 1 with one line per component that does not, 2 on a
 * usage error or an SBOM that is not valid JSON. Its unit test is {@code SbomLicenseCheckTest}.
 */
public final class SbomLicenseCheck {
    /** Licence names that POMs use, as SPDX ids (lower-cased names, punctuation kept). */
    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("apache license, version 2.0", "Apache-2.0"),
            Map.entry("the apache license, version 2.0", "Apache-2.0"),
            Map.entry("the apache software license, version 2.0", "Apache-2.0"),
            Map.entry("apache software license - version 2.0", "Apache-2.0"),
            Map.entry("apache 2.0", "Apache-2.0"),
            Map.entry("apache-2.0", "Apache-2.0"),
            Map.entry("apache license 2.0", "Apache-2.0"),
            Map.entry("mit license", "MIT"),
            Map.entry("the mit license", "MIT"),
            Map.entry("mit", "MIT"),
            Map.entry("bsd-3-clause", "BSD-3-Clause"),
            Map.entry("the bsd 3-clause license", "BSD-3-Clause"),
            Map.entry("bsd license 3", "BSD-3-Clause"),
            Map.entry("bsd-2-clause", "BSD-2-Clause"),
            Map.entry("eclipse public license 2.0", "EPL-2.0"),
            Map.entry("eclipse public license v. 2.0", "EPL-2.0"),
            Map.entry("eclipse public license - v 2.0", "EPL-2.0"),
            Map.entry("epl 2.0", "EPL-2.0"),
            Map.entry("eclipse distribution license - v 1.0", "EDL-1.0"),
            Map.entry("edl 1.0", "EDL-1.0"),
            Map.entry("gpl2 w/ cpe", "GPL-2.0-with-classpath-exception"),
            Map.entry("universal permissive license, version 1.0", "UPL-1.0"));

    private SbomLicenseCheck() {}

    public static void main(String[] args) throws Exception {
        Set<String> allowed = Set.of();
        boolean list = false;
        List<Path> boms = new ArrayList<>();
        for (String a : args) {
            if (a.startsWith("--allow="))
                allowed = Set.of(a.substring("--allow=".length()).split(","));
            else if (a.equals("--list")) list = true;
            else boms.add(Path.of(a));
        }
        if (boms.isEmpty() || allowed.isEmpty()) {
            System.err.println("usage: SbomLicenseCheck --allow=SPDX,... [--list] BOM.json...");
            System.exit(2);
        }
        List<String> problems = new ArrayList<>();
        for (Path bom : boms) {
            if (!Files.isRegularFile(bom)) {
                problems.add(bom + ": no SBOM");
                continue;
            }
            Map<String, List<String>> components;
            try {
                components = components(Files.readString(bom));
            } catch (JsonFormatException e) {
                System.err.println(bom + ": not an SBOM this check can read: " + e.getMessage());
                System.exit(2);
                return;
            }
            if (list) components.forEach((c, l) -> System.out.println(c + "  " + String.join(" | ", l)));
            for (String p : check(components, allowed)) problems.add(bom.getFileName() + ": " + p);
        }
        if (problems.isEmpty()) {
            System.out.println("SBOM licences allowed: " + boms.size() + " SBOM(s)");
            System.exit(0);
        }
        problems.forEach(System.out::println);
        System.exit(1);
    }

    /** Each component (group:name:version) and its licences as written: SPDX ids, names, or expressions. */
    @SuppressWarnings("unchecked")
    public static Map<String, List<String>> components(String json) throws JsonFormatException {
        Object root = StrictJson.parse(json.getBytes(StandardCharsets.UTF_8));
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (root instanceof Map<?, ?> m && m.get("components") instanceof List<?> l) collect((List<Object>) l, out);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void collect(List<Object> components, Map<String, List<String>> out) {
        for (Object o : components) {
            if (!(o instanceof Map<?, ?> c)) continue;
            String id = c.get("group") + ":" + c.get("name") + ":" + c.get("version");
            List<String> licences = new ArrayList<>();
            if (c.get("licenses") instanceof List<?> ls) {
                for (Object e : ls) {
                    if (!(e instanceof Map<?, ?> choice)) continue;
                    if (choice.get("expression") instanceof String x) licences.add(x);
                    if (choice.get("license") instanceof Map<?, ?> lic) {
                        Object v = lic.get("id") != null ? lic.get("id") : lic.get("name");
                        if (v != null) licences.add(v.toString());
                    }
                }
            }
            out.put(id, licences);
            if (c.get("components") instanceof List<?> nested) collect((List<Object>) nested, out);
        }
    }

    /** One line per component whose licences are not allowed. */
    public static List<String> check(Map<String, List<String>> components, Set<String> allowed) {
        List<String> problems = new ArrayList<>();
        components.forEach((c, licences) -> {
            if (licences.isEmpty()) problems.add(c + ": no licence recorded");
            else if (licences.stream().noneMatch(l -> allowed(l, allowed))) {
                problems.add(c + ": licence not on the allow-list: " + String.join(" | ", licences));
            }
        });
        return problems;
    }

    /** Whether a licence id, name or SPDX expression is allowed. */
    static boolean allowed(String licence, Set<String> allowed) {
        String l = licence.trim();
        while (l.startsWith("(") && l.endsWith(")"))
            l = l.substring(1, l.length() - 1).trim();
        String[] ors = l.split("\\s+OR\\s+");
        if (ors.length > 1) {
            for (String alt : ors) if (allowed(alt, allowed)) return true;
            return false;
        }
        String[] ands = l.split("\\s+AND\\s+");
        if (ands.length > 1) {
            for (String part : ands) if (!allowed(part, allowed)) return false;
            return true;
        }
        if (allowed.contains(l)) return true;
        String spdx = NAMES.get(l.toLowerCase(Locale.ROOT));
        return spdx != null && allowed.contains(spdx);
    }

    /** The SPDX ids named by {@code components}' licences, for reports. */
    static Set<String> ids(Map<String, List<String>> components) {
        Set<String> ids = new TreeSet<>();
        components.values().forEach(ids::addAll);
        return ids;
    }
}
