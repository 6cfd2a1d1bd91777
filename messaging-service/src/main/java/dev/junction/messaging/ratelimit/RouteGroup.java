package dev.junction.messaging.ratelimit;

import java.util.Locale;

import dev.junction.messaging.common.Api;

/** Routes that share one rate limit. */
public enum RouteGroup {

	MESSAGES, EVENTS, INSTANCES, GENERAL;

	/** The group of the request {@code path}. */
	public static RouteGroup of(String path) {
		String route = path.startsWith(Api.BASE) ? path.substring(Api.BASE.length()) : path;
		if (route.startsWith("/messages") || (route.startsWith("/chats/") && route.endsWith("/messages"))) {
			return MESSAGES;
		}
		if (route.startsWith("/events")) {
			return EVENTS;
		}
		if (route.startsWith("/instances")) {
			return INSTANCES;
		}
		return GENERAL;
	}

	/** Lower-case name, used in bucket keys and messages. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

}
