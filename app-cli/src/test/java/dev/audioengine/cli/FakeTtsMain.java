package dev.audioengine.cli;

import dev.audioengine.api.registry.BackendRegistry;
import dev.audioengine.cli.testkit.FakeTtsFamily;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * The audioengine command with {@link FakeTtsFamily} as its only family, for a child JVM whose heap a test limits;
 * prints the heap's peak (the pools' peaks summed: an upper bound, garbage included) to stderr as
 * {@code peak heap: N bytes}.
 */
public final class FakeTtsMain {
    private FakeTtsMain() {}

    public static void main(String[] args) {
        FakeTtsFamily family = new FakeTtsFamily();
        int status;
        try {
            status = Main.commandLine(new AudioEngineCommand(BackendRegistry::load, family::registry)
                            .streams(System.in, System.out))
                    .execute(args);
        } catch (OutOfMemoryError e) {
            System.err.println(ErrorReporter.outOfMemory(e));
            status = ErrorReporter.EXIT_FAILURE;
        }
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) peak += pool.getPeakUsage().getUsed();
        }
        System.err.println("peak heap: " + peak + " bytes");
        System.exit(status);
    }
}
