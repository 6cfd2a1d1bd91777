package dev.junction.messaging.db;

/** The databases the service runs on. */
public enum Vendor {

	/** PostgreSQL, for production. */
	POSTGRESQL("postgresql"),

	/** Embedded H2 in PostgreSQL mode, when nothing is configured. */
	H2("h2");

	private final String id;

	Vendor(String id) {
		this.id = id;
	}

	/** Lower-case name, also the vendor's migration folder. */
	public String id() {
		return this.id;
	}

}
