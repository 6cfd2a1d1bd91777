package dev.junction.messaging.common;

/** Paths shared by every resource of the API. */
public final class Api {

	/** Base path of every endpoint. */
	public static final String BASE = "/api/v2";

	private Api() {
	}

}
