package dev.audioengine.cli.daemon;

import dev.audioengine.api.AudioEngine;
import dev.audioengine.cli.ModelKeeper;
import dev.audioengine.model.TaskModel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engines and models a resident process keeps between jobs, by what decides them (task, family, model files,
 * backend, devices, threads, capability switches, fallback, backend options): the {@value #KEPT} most recently used,
 * so that a script that alternates two models loads each once and a long session does not gather every model it
 * ever ran. A model given as a path is loaded per job (its files may change); so is one whose key is in use by
 * another job (jobs run one at a time, so that does not happen).
 */
final class ResidentModels implements ModelKeeper, AutoCloseable {
    static final int KEPT = 2;

    private record Kept(AudioEngine engine, TaskModel model) {}

    private final LinkedHashMap<String, Kept> kept = new LinkedHashMap<>(4, 0.75f, true);
    private boolean closed;

    @Override
    public synchronized Lease lease(String key, EngineSource engine, ModelSource model) throws IOException {
        if (key == null || closed) return NONE.lease(null, engine, model);
        Kept k = kept.get(key);
        if (k == null) {
            Lease fresh = NONE.lease(key, engine, model);
            k = new Kept(fresh.engine(), fresh.model());
            kept.put(key, k);
            evict();
        }
        return new Lease(k.engine(), k.model(), () -> {});
    }

    private void evict() {
        Iterator<Map.Entry<String, Kept>> it = kept.entrySet().iterator();
        while (kept.size() > KEPT && it.hasNext()) {
            Kept old = it.next().getValue();
            it.remove();
            release(old);
        }
    }

    private static void release(Kept k) {
        try (AudioEngine e = k.engine()) {
            k.model().close();
        } catch (RuntimeException e) {
            DaemonServer.LOG.println("audioengine daemon: closing a kept model: " + e);
        }
    }

    /** A line for {@code daemon status}. */
    synchronized String describe() {
        if (kept.isEmpty()) return "no model kept";
        List<String> names = new ArrayList<>();
        for (String key : kept.keySet())
            names.add(key.substring(0, key.indexOf(' ')).toLowerCase(java.util.Locale.ROOT));
        return kept.size() + " models kept (" + String.join(", ", names) + ")";
    }

    /** Closes every kept model; later leases load afresh. */
    synchronized void clear() {
        kept.values().forEach(ResidentModels::release);
        kept.clear();
    }

    @Override
    public synchronized void close() {
        closed = true;
        clear();
    }
}
