"""The sync workloads of Benchmarks/sync-peers/run.sh, on Loro and Yrs (pycrdt), in process.

A grid of N items is a list of maps, one per item, whose "size" a change sets: Loro's
movable list (items keep their identity when moved) and Yrs's array. Every stored document
is a file written with fsync, as gridstore's databases are. Prints one JSON object: for each
peer, the median milliseconds of each workload and the bytes a size change takes on the wire.
"""
import json
import os
import random
import statistics
import sys
import tempfile
import time

import loro
import pycrdt

SIZES = ["small", "middle", "big"]


def write(path, data):
    with open(path, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())


def read(path):
    with open(path, "rb") as file:
        return file.read()


class Loro:
    name = "Loro"

    @staticmethod
    def new(items=0, seed_from=None):
        doc = loro.LoroDoc()
        if seed_from is not None:
            doc.import_(seed_from)
        else:
            grid = doc.get_movable_list("items")
            for index in range(items):
                item = grid.insert_container(index, loro.LoroMap())
                item.insert("size", "small")
            doc.commit()
        return doc

    @staticmethod
    def load(data):
        doc = loro.LoroDoc()
        doc.import_(data)
        return doc

    @staticmethod
    def snapshot(doc):
        return doc.export(loro.ExportMode.Snapshot())

    @staticmethod
    def version(doc):
        return doc.oplog_vv

    @staticmethod
    def updates_since(doc, version):
        return doc.export(loro.ExportMode.Updates(version))

    @staticmethod
    def apply(doc, update):
        doc.import_(update)

    @staticmethod
    def set_size(doc, index, size, commit=True):
        item = doc.get_movable_list("items").get(index).container
        item.insert("size", size)
        if commit:
            doc.commit()

    @staticmethod
    def commit(doc):
        doc.commit()


class Yrs:
    name = "Yrs"

    @staticmethod
    def new(items=0, seed_from=None):
        doc = pycrdt.Doc()
        grid = doc.get("items", type=pycrdt.Array)
        if seed_from is not None:
            doc.apply_update(seed_from)
        else:
            with doc.transaction():
                for _ in range(items):
                    grid.append(pycrdt.Map({"size": "small"}))
        return doc

    @staticmethod
    def load(data):
        doc = pycrdt.Doc()
        doc.get("items", type=pycrdt.Array)
        doc.apply_update(data)
        return doc

    @staticmethod
    def snapshot(doc):
        return doc.get_update()

    @staticmethod
    def version(doc):
        return doc.get_state()

    @staticmethod
    def updates_since(doc, version):
        return doc.get_update(version)

    @staticmethod
    def apply(doc, update):
        doc.apply_update(update)

    @staticmethod
    def set_size(doc, index, size, commit=True):
        doc.get("items", type=pycrdt.Array)[index]["size"] = size

    @staticmethod
    def commit(doc):
        pass


def timed(body):
    start = time.perf_counter()
    body()
    return (time.perf_counter() - start) * 1000


def measure(peer, items, offline, rounds, folder):
    rng = random.Random(43)
    phone = peer.new(items)
    tablet = peer.new(seed_from=peer.snapshot(phone))
    tablet_path = os.path.join(folder, peer.name + "-tablet.bin")
    phone_path = os.path.join(folder, peer.name + "-phone.bin")
    write(tablet_path, peer.snapshot(tablet))
    write(phone_path, peer.snapshot(phone))
    apply_ms, export_ms, sync_ms, bytes_per_change = [], [], [], []
    for _ in range(rounds):
        # Every size changed on the phone, in one change; the tablet loads, applies and stores.
        seen = peer.version(tablet)
        if peer is Yrs:
            with phone.transaction():
                for index in range(items):
                    peer.set_size(phone, index, rng.choice(SIZES))
        else:
            for index in range(items):
                peer.set_size(phone, index, rng.choice(SIZES), commit=False)
            peer.commit(phone)
        write(phone_path, peer.snapshot(phone))
        update = peer.updates_since(phone, seen)
        bytes_per_change.append(len(update) / items)
        # Export what the tablet lacks, from the phone's document in memory (gridstore's figure
        # is a process that opens its database: it includes what a load costs here).
        export_ms.append(timed(lambda: peer.updates_since(phone, seen)))

        def apply():
            doc = peer.load(read(tablet_path))
            peer.apply(doc, update)
            write(tablet_path, peer.snapshot(doc))
        apply_ms.append(timed(apply))
        tablet = peer.load(read(tablet_path))
        # Offline changes on both, each its own change, stored; then one sync both ways.
        for doc, path in ((phone, phone_path), (tablet, tablet_path)):
            for _ in range(offline):
                peer.set_size(doc, rng.randrange(items), rng.choice(SIZES))
            write(path, peer.snapshot(doc))

        def sync():
            a, b = peer.load(read(phone_path)), peer.load(read(tablet_path))
            to_b = peer.updates_since(a, peer.version(b))
            to_a = peer.updates_since(b, peer.version(a))
            peer.apply(b, to_b)
            peer.apply(a, to_a)
            write(phone_path, peer.snapshot(a))
            write(tablet_path, peer.snapshot(b))
        sync_ms.append(timed(sync))
        phone, tablet = peer.load(read(phone_path)), peer.load(read(tablet_path))
    return {
        "apply": statistics.median(apply_ms),
        "sync": statistics.median(sync_ms),
        "export": statistics.median(export_ms),
        "bytesPerChange": statistics.median(bytes_per_change),
    }


def main():
    items, offline, rounds = (int(argument) for argument in sys.argv[1:4])
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps({peer.name: measure(peer, items, offline, rounds, folder) for peer in (Loro, Yrs)}))


if __name__ == "__main__":
    main()
