package dev.audioengine.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ResolvedModule;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Module-path discovery with the packaged jars: a layer resolved from dist/lib (service binding,
 * as the launcher's -p does) has exactly the backends whose jars it was given.
 */
class ModuleLayerDiscoveryIT {
    private static final String SERVICE = "dev.audioengine.api.spi.BackendProvider";

    /** The layer's registry, driven reflectively: its classes are not the ones on this test's class path. */
    private record LayerRegistry(Set<String> registryNames, Set<String> moduleNames, boolean cpuAvailable) {}

    private static LayerRegistry discover(List<Path> jars) throws Exception {
        ModuleFinder finder = ModuleFinder.of(jars.toArray(Path[]::new));
        ModuleLayer boot = ModuleLayer.boot();
        Configuration cf =
                boot.configuration().resolveAndBind(finder, ModuleFinder.of(), Set.of("dev.audioengine.cli"));
        ModuleLayer layer = boot.defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
        ClassLoader loader = layer.findLoader("dev.audioengine.api");

        Class<?> registryClass = Class.forName("dev.audioengine.api.registry.BackendRegistry", true, loader);
        Class<?> spi = Class.forName(SERVICE, false, loader);
        Object registry = registryClass.getMethod("load", ModuleLayer.class).invoke(null, layer);
        Method registryName = spi.getMethod("registryName");
        Method probe = registryClass.getMethod("probe", spi);
        Set<String> names = new java.util.TreeSet<>();
        boolean cpuAvailable = false;
        for (Object p : (List<?>) registryClass.getMethod("providers").invoke(registry)) {
            String name = (String) registryName.invoke(p);
            names.add(name);
            if (name.equals("CPU")) {
                Object result = probe.invoke(registry, p);
                cpuAvailable =
                        (boolean) result.getClass().getMethod("available").invoke(result);
            }
        }
        Set<String> modules = cf.modules().stream().map(ResolvedModule::name).collect(Collectors.toSet());
        return new LayerRegistry(names, modules, cpuAvailable);
    }

    @Test
    void theVulkanJarAloneDecidesWhetherVulkanIsThere() throws Exception {
        List<Path> all = Dist.jars();
        List<Path> withoutVulkan = all.stream()
                .filter(p -> !p.getFileName().toString().equals("audioengine-backend-vulkan.jar"))
                .toList();
        assertThat(withoutVulkan).hasSize(all.size() - 1);

        LayerRegistry with = discover(all);
        assertThat(with.registryNames()).containsExactlyInAnyOrder("CPU", "CUDA", "ROCm", "Vulkan");
        assertThat(with.moduleNames()).contains("dev.audioengine.backend.vulkan");
        assertThat(with.cpuAvailable()).isTrue();

        LayerRegistry without = discover(withoutVulkan);
        assertThat(without.registryNames()).containsExactlyInAnyOrder("CPU", "CUDA", "ROCm");
        assertThat(without.moduleNames()).doesNotContain("dev.audioengine.backend.vulkan");
        assertThat(without.cpuAvailable()).isTrue();
    }

    @Test
    void theCliRequiresNoBackendAndUsesTheService() throws Exception {
        ModuleDescriptor cli = ModuleFinder.of(Dist.lib())
                .find("dev.audioengine.cli")
                .orElseThrow()
                .descriptor();
        assertThat(cli.requires())
                .extracting(ModuleDescriptor.Requires::name)
                .noneMatch(n -> n.startsWith("dev.audioengine.backend"));
        assertThat(cli.uses()).contains(SERVICE);
    }

    @Test
    void everyBackendJarProvidesTheServiceOnTheModulePathAndTheClassPath() throws Exception {
        List<Path> backends = Dist.jars().stream()
                .filter(p -> p.getFileName().toString().startsWith("audioengine-backend-"))
                .toList();
        assertThat(backends)
                .extracting(p -> p.getFileName().toString())
                .contains(
                        "audioengine-backend-cpu.jar",
                        "audioengine-backend-cuda.jar",
                        "audioengine-backend-hip.jar",
                        "audioengine-backend-vulkan.jar");
        for (Path jar : backends) {
            ModuleDescriptor d =
                    ModuleFinder.of(jar).findAll().iterator().next().descriptor();
            List<String> moduleProviders = d.provides().stream()
                    .filter(p -> p.service().equals(SERVICE))
                    .flatMap(p -> p.providers().stream())
                    .toList();
            assertThat(moduleProviders)
                    .as("%s provides %s", jar.getFileName(), SERVICE)
                    .isNotEmpty();
            assertThat(d.name())
                    .as("the launcher derives native access from the jar name")
                    .isEqualTo("dev.audioengine.backend."
                            + jar.getFileName().toString().replaceAll("^audioengine-backend-|\\.jar$", ""));
            try (JarFile jf = new JarFile(jar.toFile())) {
                var entry = jf.getEntry("META-INF/services/" + SERVICE);
                assertThat(entry)
                        .as("%s lists its provider in META-INF/services for class-path users", jar.getFileName())
                        .isNotNull();
                String listed =
                        new String(jf.getInputStream(entry).readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                assertThat(listed.lines()
                                .map(String::strip)
                                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                                .toList())
                        .containsExactlyInAnyOrderElementsOf(moduleProviders);
            }
        }
    }
}
