import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The lock that keeps two processes (or two engines) from running sync rounds on one store
/// at once: an exclusive `flock` on `<store>-sync.lock` beside the store file, which the
/// kernel releases if the holder dies.
final class SyncLock {
    private var descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Waits for the lock of the store at `url` (no lock for an in-memory store).
    static func acquire(for url: URL?) async throws -> SyncLock {
        guard let url else { return SyncLock(descriptor: -1) }
        let path = url.path + "-sync.lock"
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SyncFailure.error("Cannot open the sync lock file \(path): \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let message = String(cString: strerror(errno))
                close(descriptor)
                throw SyncFailure.error("Cannot lock \(path): \(message)")
            }
            do {
                try await Task.sleep(nanoseconds: 5_000_000)
            } catch {
                close(descriptor)
                throw error
            }
        }
        return SyncLock(descriptor: descriptor)
    }

    /// Releases the lock (once; again does nothing).
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
