package dev.audioengine.spark;

import java.util.Map;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * Closes the executor's models when the executor stops ({@code --conf spark.plugins=dev.audioengine.spark.AudioEnginePlugin}),
 * so their native memory and GPU contexts go back before the JVM exits; without it they are closed at JVM exit.
 */
public final class AudioEnginePlugin implements SparkPlugin {
    /** The plugin Spark instantiates by name. */
    public AudioEnginePlugin() {}

    @Override
    public DriverPlugin driverPlugin() {
        return null;
    }

    @Override
    public ExecutorPlugin executorPlugin() {
        return new ExecutorPlugin() {
            @Override
            public void init(org.apache.spark.api.plugin.PluginContext ctx, Map<String, String> extraConf) {}

            @Override
            public void shutdown() {
                ExecutorModels.closeAll();
            }
        };
    }
}
