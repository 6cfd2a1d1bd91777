package dev.junction.messaging.system;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;

import dev.junction.database.DatabaseUrl;
import dev.junction.messaging.common.Api;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /info}: name, version, uptime. */
@RestController
class InfoController {

	private final String version;

	private final String database;

	InfoController(ObjectProvider<BuildProperties> build, DatabaseUrl database) {
		BuildProperties properties = build.getIfAvailable();
		this.version = (properties != null) ? properties.getVersion() : "development";
		this.database = database.vendor();
	}

	@GetMapping(Api.BASE + "/info")
	Info info() {
		Instant started = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
		Duration uptime = Duration.between(started, Instant.now());
		return new Info("junction-messaging", this.version, "v2", started, uptime.toSeconds(), uptime.toString(),
				this.database, Runtime.version().toString());
	}

	/**
	 * About the running service.
	 *
	 * @param name service name
	 * @param version build version
	 * @param apiVersion API version in the paths
	 * @param startedAt when the process started
	 * @param uptimeSeconds seconds since start
	 * @param uptime the same as an ISO-8601 duration
	 * @param database database in use (postgresql or h2)
	 * @param java Java version
	 */
	record Info(String name, String version, String apiVersion, Instant startedAt, long uptimeSeconds, String uptime,
			String database, String java) {
	}

}
