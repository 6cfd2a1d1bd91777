package dev.junction.mock.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 over a raw socket, for requests no well-behaved client sends: bodies cut
 * short, uploads abandoned.
 */
public final class RawHttp {

	private RawHttp() {
	}

	/**
	 * Sends a POST announcing {@code announced} bytes of body but sending only
	 * {@code body}, then waits for the server to answer and close the connection.
	 * @return everything the server sent before closing
	 * @throws AssertionError when the connection is still open after {@code waitSeconds}
	 */
	public static String unfinishedPost(int port, String path, String headers, String body, int announced,
			int waitSeconds) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(waitSeconds * 1000);
			socket.getOutputStream()
				.write(head(path, headers, announced).concat(body).getBytes(StandardCharsets.UTF_8));
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream answer = new ByteArrayOutputStream();
			byte[] buffer = new byte[4096];
			try {
				for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
					answer.write(buffer, 0, read);
				}
			}
			catch (SocketTimeoutException ex) {
				throw new AssertionError("the connection was still open after " + waitSeconds + " s; answered: "
						+ answer.toString(StandardCharsets.UTF_8));
			}
			catch (IOException ex) {
				// reset by the server: closed as well
			}
			return answer.toString(StandardCharsets.UTF_8);
		}
	}

	/**
	 * Sends a POST announcing {@code announced} bytes of body, sends only {@code body},
	 * and goes away: with a TCP reset when {@code reset}, else with an orderly close.
	 */
	public static void abandonedPost(int port, String path, String headers, String body, int announced, boolean reset)
			throws IOException, InterruptedException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.getOutputStream()
				.write(head(path, headers, announced).concat(body).getBytes(StandardCharsets.UTF_8));
			socket.getOutputStream().flush();
			Thread.sleep(200);
			if (reset) {
				socket.setSoLinger(true, 0);
			}
		}
	}

	private static String head(String path, String headers, int announced) {
		return "POST " + path + " HTTP/1.1\r\nHost: mock\r\nContent-Type: application/json\r\n" + headers
				+ "Content-Length: " + announced + "\r\n\r\n";
	}

}
