package dev.audioengine.cli.command;

import dev.audioengine.api.capability.Capability;
import dev.audioengine.api.spi.DeviceInfo;
import dev.audioengine.model.output.JsonWriter;
import java.util.List;

/**
 * The machine-readable listing: an array of objects with exactly the keys name, type,
 * registryName, available, reason, devices ({index, name, arch, memoryTotal, memoryFree},
 * memory in bytes) and capabilities. Scripts depend on this shape; extend it, never rename.
 */
final class BackendsJson {
    private BackendsJson() {}

    static String render(List<BackendEntry> entries) {
        JsonWriter w = new JsonWriter().beginArray();
        for (BackendEntry e : entries) {
            w.beginObject()
                    .name("name")
                    .value(e.cliName())
                    .name("type")
                    .value(e.type().name())
                    .name("registryName")
                    .value(e.registryName())
                    .name("available")
                    .value(e.probe().available())
                    .name("reason")
                    .value(e.probe().reason())
                    .name("devices")
                    .beginArray();
            for (DeviceInfo d : e.probe().devices()) {
                w.beginObject()
                        .name("index")
                        .value(d.index())
                        .name("name")
                        .value(d.name())
                        .name("arch")
                        .value(d.arch())
                        .name("memoryTotal")
                        .value(d.memoryTotal())
                        .name("memoryFree")
                        .value(d.memoryFree())
                        .endObject();
            }
            w.endArray().name("capabilities").beginArray();
            for (Capability c : e.capabilities()) w.value(c.name());
            w.endArray().endObject();
        }
        return w.endArray().toString();
    }
}
