// SPDX-License-Identifier: MIT
// etwctl/testing/sim_live.hpp - a simulated real-time session with a consumer: the consumer kernel line
// (kernel/consumer_concept.hpp: OpenTraceW, ProcessTrace, CloseTrace, and the raw buffers) over a
// sim::kernel session recorded by a sim::recorder (testing/sim_recorder.hpp).
//
//     sim::realtime_channel channel(k, logger_id, channel_storage); // the recorder's sink: buffers queue here
//     sim::recorder rec(k, logger_id, w, buffers, channel.sink());
//     sim::live_session live(k, rec, channel, {.run_ms = 50});
//     auto report = trace::consume(live, u"NT Kernel Logger", storage, control, handlers...);
//
// What it models (Microsoft Learn, "OpenTraceW", "ProcessTrace", "CloseTrace"):
//  - OpenTraceW: LoggerName names a running session with EVENT_TRACE_REAL_TIME_MODE (else
//    ERROR_WMI_INSTANCE_NOT_FOUND), PROCESS_TRACE_MODE_REAL_TIME given (else ERROR_INVALID_PARAMETER),
//    a LogFileName with a LoggerName is ERROR_INVALID_PARAMETER; one consumer at a time (model choice:
//    ERROR_BUSY for a second); the handle is 0x5E5500 + the logger id (model choice);
//  - ProcessTrace (the raw-buffer form): runs the workload while it waits (the simulated clock advances
//    one millisecond per wait, `run_ms` in all, then the recorder stops, as if the controller stopped the
//    session) and delivers the buffers as they are flushed, the header buffer first; returns when the
//    session has ended, or after CloseTrace once the queue is drained, or ERROR_CANCELLED when the
//    callback returns false; the EVENT_RECORD form answers ERROR_NOT_SUPPORTED (model choice: not modelled);
//  - CloseTrace: ERROR_INVALID_HANDLE for an unknown handle, ERROR_CTX_CLOSE_PENDING while ProcessTrace
//    runs, else success;
//  - a consumer that does not keep up: the channel holds `capacity` buffers; a buffer flushed when it is
//    full is lost to the consumer and counted in the session's RealTimeBuffersLost (model choice: the
//    delivery is one buffer per wait when `slow_consumer` is set).
// close() is safe from another thread (an atomic flag); everything else is the sim's one-thread contract.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "etwctl/config.hpp"
#include "etwctl/kernel/consumer_concept.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "etwctl/testing/sim_recorder.hpp"
#include "etwctl/trace/format.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace sim {

/// The queue of flushed buffers between a recorder and a real-time consumer, in the caller's storage.
class realtime_channel {
public:
    /// `storage` holds the queue: its size / BufferSize buffers.
    realtime_channel(kernel& k, std::uint16_t logger_id, std::span<std::byte> storage) noexcept : k_(&k), logger_(logger_id), storage_(storage) {
        logger_record const* r = k.sessions().find(logger_id);
        std::size_t const kb = r && r->properties.buffer_size != 0 ? r->properties.buffer_size : session_model::default_buffer_kb;
        buffer_bytes_ = kb * 1024U;
        capacity_ = storage.size() / buffer_bytes_;
    }
    byte_sink sink() noexcept { return {&realtime_channel::put, this}; }
    std::size_t capacity() const noexcept { return capacity_; }
    std::size_t queued() const noexcept { return count_; }
    std::uint64_t lost() const noexcept { return lost_; }
    /// The oldest queued buffer (empty when none); pop() removes it.
    std::span<std::byte const> front() const noexcept {
        if (count_ == 0) return {};
        return {storage_.data() + head_ * buffer_bytes_, sizes_[head_]};
    }
    void pop() noexcept {
        if (count_ == 0) return;
        head_ = (head_ + 1) % capacity_;
        --count_;
    }

private:
    static constexpr std::size_t max_slots = 4096;
    static void put(void* context, std::uint64_t, std::span<std::byte const> bytes) noexcept {
        auto* self = static_cast<realtime_channel*>(context);
        if (self->capacity_ == 0 || bytes.size() > self->buffer_bytes_) return;
        if (self->count_ == self->capacity_ || self->capacity_ > max_slots) {
            ++self->lost_;
            (void)self->k_->sessions().lose_buffers(self->logger_, 0, 1); // RealTimeBuffersLost
            return;
        }
        std::size_t const slot = (self->head_ + self->count_) % self->capacity_;
        std::memcpy(self->storage_.data() + slot * self->buffer_bytes_, bytes.data(), bytes.size());
        self->sizes_[slot] = bytes.size();
        ++self->count_;
    }
    kernel* k_;
    std::uint16_t logger_;
    std::span<std::byte> storage_;
    std::size_t buffer_bytes_ = 0;
    std::size_t capacity_ = 0;
    std::size_t head_ = 0, count_ = 0;
    std::size_t sizes_[max_slots] = {};
    std::uint64_t lost_ = 0;
};

/// How the simulated session runs while a consumer waits.
struct live_options {
    std::uint32_t run_ms = 20;       ///< simulated milliseconds before the session stops
    bool slow_consumer = false;      ///< deliver one buffer per simulated millisecond
};

/// The consumer kernel over one recorded real-time session.
class live_session {
public:
    live_session(kernel& k, recorder& rec, realtime_channel& channel, live_options o = {}) noexcept
        : k_(&k), rec_(&rec), channel_(&channel), o_(o) {}

    std::uint32_t open_trace_w(void* logfile, std::uint64_t* handle) noexcept {
        if (!logfile || !handle) return win32::invalid_parameter;
        *handle = invalid_processtrace_handle;
        auto* lf = static_cast<event_trace_logfilew_layout*>(logfile);
        if (!lf->logger_name || lf->log_file_name) return win32::invalid_parameter;
        if ((lf->process_trace_mode & process_trace_mode::real_time) == 0) return win32::invalid_parameter;
        std::size_t n = 0;
        while (n < 1025 && lf->logger_name[n] != 0) ++n;
        logger_record const* r = k_->sessions().find_by_name(wide_string_view(lf->logger_name, n));
        if (!r || (r->properties.log_file_mode & log_file_mode::real_time) == 0) return win32::wmi_instance_not_found;
        if (open_) return busy;
        open_ = true;
        closing_.store(false);
        handle_ = base_handle + r->id;
        lf->is_kernel_trace = r->id == limits::kernel_logger_id ? 1U : 0U;
        lf->buffer_size = r->properties.buffer_size * 1024U;
        *handle = handle_;
        return win32::success;
    }
    std::uint32_t process_trace(std::uint64_t const* handles, std::uint32_t count, std::uint64_t const*, std::uint64_t const*) noexcept {
        if (!handles || count == 0) return win32::invalid_parameter;
        if (count > 64) return bad_length;
        if (!open_ || handles[0] != handle_) return win32::invalid_handle;
        return win32::not_supported; // model choice: EVENT_RECORD delivery is not modelled (process_trace_buffers is)
    }
    std::uint32_t process_trace_buffers(std::uint64_t handle, buffer_callback on_buffer, void* context) noexcept {
        if (!open_ || handle != handle_) return win32::invalid_handle;
        if (!on_buffer) return win32::invalid_parameter;
        running_.store(true);
        std::uint32_t result = win32::success;
        for (;;) {
            // deliver what is queued (one buffer per wait for a slow consumer)
            for (std::size_t i = 0; channel_->queued() != 0 && (!o_.slow_consumer || i < 1); ++i) {
                auto const b = channel_->front();
                bool const more = on_buffer(context, b);
                channel_->pop();
                if (!more) {
                    result = consumer_result::cancelled;
                    break;
                }
            }
            if (result != win32::success) break;
            if (closing_.load() && channel_->queued() == 0) break; // CloseTrace: drained, done
            if (ended_ && channel_->queued() == 0) break;          // the session stopped
            if (ended_ || closing_.load()) continue;               // drain the rest
            // wait: the machine runs
            if (!started_) {
                rec_->start();
                started_ = true;
            } else if (elapsed_ < o_.run_ms) {
                rec_->advance(1);
                ++elapsed_;
            } else {
                rec_->stop();
                ended_ = true;
            }
        }
        running_.store(false);
        return result;
    }
    std::uint32_t close_trace(std::uint64_t handle) noexcept {
        if (!open_ || handle != handle_) return win32::invalid_handle;
        if (running_.load()) {
            closing_.store(true);
            return consumer_result::ctx_close_pending;
        }
        open_ = false;
        return win32::success;
    }

    bool ended() const noexcept { return ended_; }
    std::uint32_t elapsed_ms() const noexcept { return elapsed_; }

private:
    static constexpr std::uint64_t base_handle = 0x5E5500;
    static constexpr std::uint32_t busy = 170;       // ERROR_BUSY
    static constexpr std::uint32_t bad_length = 24;  // ERROR_BAD_LENGTH
    kernel* k_;
    recorder* rec_;
    realtime_channel* channel_;
    live_options o_;
    std::uint64_t handle_ = invalid_processtrace_handle;
    bool open_ = false, started_ = false, ended_ = false;
    std::uint32_t elapsed_ = 0;
    std::atomic<bool> running_{false};
    std::atomic<bool> closing_{false};
};

static_assert(buffer_consumer_kernel<live_session>);

} // namespace sim
ETWCTL_END_NAMESPACE
