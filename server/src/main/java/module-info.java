module dev.audioengine.server {
    requires dev.audioengine.model;
    requires io.helidon.webserver;
    requires io.helidon.webserver.sse;
    requires org.apache.commons.fileupload2.core;
}
